// End-to-end: the lab embedded as a docs author expects. Its colours follow
// `?theme=light|dark|auto` from the first paint, and the host page can switch
// them live by message; a message from anywhere but the parent is ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labSuite } from './harness.mjs';

const suite = labSuite();
const { withLab } = suite;

const LIGHT = 'rgb(246, 247, 249)';
const DARK = 'rgb(17, 19, 24)';
const background = (target) => target.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('?theme= fixes the colours from the first paint, whatever the system says; auto or nothing follows it', async () => {
  for (const [theme, colorScheme, expected] of [
    ['dark', 'light', DARK],
    ['light', 'dark', LIGHT],
    ['auto', 'dark', DARK],
    [null, 'light', LIGHT],
    ['sepia', 'dark', DARK],
  ]) {
    const query = `?embed=1${theme ? `&theme=${theme}` : ''}`;
    await withLab({ query, colorScheme }, async (page) => {
      assert.equal(await background(page), expected, `${query} on a ${colorScheme} system`);
    });
  }
  // Before the Wasm arrives: the boot frame is painted in the theme too.
  await withLab({ query: '?embed=1&theme=dark', colorScheme: 'light' }, async (page, lab) => {
    const fresh = await lab.context.newPage();
    await fresh.route(/\.wasm$/, () => {});
    await fresh.goto(`${suite.server.url}?embed=1&theme=dark`, { waitUntil: 'domcontentloaded' });
    assert.equal(await fresh.locator('html.theme-dark [data-boot="en"]').count(), 1, 'the boot frame is there, dark');
    assert.equal(await background(fresh), DARK);
  });
});

test('the host page switches the theme live by message; nobody else can', () =>
  withLab({ query: '?embed=1', colorScheme: 'light' }, async (page, lab) => {
    const docs = await lab.context.newPage();
    await docs.setContent(`<h1>Docs</h1><iframe title="lab" src="${suite.server.url}?embed=1&lang=en" width="700" height="600"></iframe>`);
    const frame = docs.frames().find((f) => f !== docs.mainFrame());
    await frame.waitForSelector('body[data-ready="true"]');
    assert.equal(await background(frame), LIGHT);
    const post = (message) => docs.evaluate((m) => document.querySelector('iframe').contentWindow.postMessage(m, '*'), message);
    const settled = () => frame.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => r(true))));

    await post({ type: 'idempotency-lab:theme', theme: 'dark' });
    await frame.waitForFunction((dark) => getComputedStyle(document.body).backgroundColor === dark, DARK);
    // A theme the lab does not have, another type, or a message the frame
    // sends itself: nothing changes.
    await post({ type: 'idempotency-lab:theme', theme: 'sepia' });
    await post({ type: 'other', theme: 'light' });
    await post('idempotency-lab:theme light');
    await frame.evaluate(() => window.postMessage({ type: 'idempotency-lab:theme', theme: 'light' }, '*'));
    await settled();
    await frame.waitForTimeout(200);
    assert.equal(await background(frame), DARK);
    // Back to the system's colours.
    await post({ type: 'idempotency-lab:theme', theme: 'auto' });
    await frame.waitForFunction((light) => getComputedStyle(document.body).backgroundColor === light, LIGHT);
    assert.equal(await frame.locator('html.theme-dark, html.theme-light').count(), 0);
  }));

test('in a sandboxed frame without allow-forms, Send, Enter in a field and a question\'s Check all work', () =>
  withLab({ query: '?embed=1' }, async (page, lab) => {
    const docs = await lab.context.newPage();
    const frameAt = async (query) => {
      await docs.setContent(`<iframe title="lab" sandbox="allow-scripts allow-same-origin" src="${suite.server.url}${query}" width="900" height="700"></iframe>`);
      const frame = docs.frames().find((f) => f !== docs.mainFrame());
      await frame.waitForSelector('body[data-ready="true"]');
      return frame;
    };
    const lab1 = await frameAt('?embed=1&lang=en');
    await lab1.getByRole('button', { name: 'Send', exact: true }).click();
    await lab1.locator('[data-testid="timeline"][data-total="1"]').waitFor();
    await lab1.getByLabel('Key', { exact: true }).fill('order-1043');
    await lab1.getByLabel('Key', { exact: true }).press('Enter');
    await lab1.locator('[data-testid="timeline"][data-total="2"]').waitFor();
    assert.deepEqual(
      await lab1.locator('[data-testid="timeline-row"] .key').allTextContents(),
      ['order-1042', 'order-1043'],
    );
    // A number question: Enter in its field, and its Check button.
    const lab2 = await frameAt('?embed=1&lang=en&scenario=s1&step=2');
    const answer = lab2.getByLabel('Answer', { exact: true });
    await answer.fill('1');
    await answer.press('Enter');
    await lab2.locator('[data-testid="feedback"][data-correct="false"]').waitFor();
    await answer.fill('200');
    await lab2.getByRole('button', { name: 'Check', exact: true }).click();
    await lab2.locator('[data-testid="feedback"][data-correct="true"]').waitFor();
  }));
