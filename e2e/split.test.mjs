// End-to-end: the split Wasm (README, "The Wasm split"). The first load carries
// what the first screen needs; the panels below it arrive in a chunk fetched
// once the first screen is ready, and the walkthrough in a chunk fetched when
// it is first opened. A chunk that fails is fetched again; one that never
// arrives is said where its part would stand, and the rest of the lab works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { DIST, labSuite, rows, answeredRows } from './harness.mjs';

const suite = labSuite();

const PANELS_CHUNK = /\/split_panels-[0-9a-f]{16}\.wasm$/;
const WALK_CHUNK = /\/split_walkthrough-[0-9a-f]{16}\.wasm$/;
/** Every file the splitter wrote beside the main module: chunks and its loader. */
const SPLIT_FILE = /\/(split_\w+|chunk_\d+|__wasm_split)-[0-9a-f]{16}\.(wasm|js)$/;

/**
 * A page in a new context, with the errors it logs (page errors, and console
 * errors unless `consoleErrors` is false: a chunk that fails logs one), for `body`.
 */
async function withPage(body, { consoleErrors = true } = {}) {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    if (consoleErrors) page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await body(page, errors);
  } finally {
    await context.close();
  }
}

/** The Wasm files the page asked for, in order. */
function recordWasm(page) {
  const asked = [];
  page.on('request', (r) => {
    if (/\.wasm$/.test(r.url())) asked.push(r.url());
  });
  return asked;
}

test('the release build is split: chunks with hashed names beside the main module', async () => {
  const files = await readdir(DIST);
  assert.ok(files.some((f) => PANELS_CHUNK.test(`/${f}`)), `a panels chunk in ${files}`);
  assert.ok(files.some((f) => WALK_CHUNK.test(`/${f}`)), `a walkthrough chunk in ${files}`);
  assert.ok(files.some((f) => /^__wasm_split-[0-9a-f]{16}\.js$/.test(f)), 'the chunks\' loader, hashed');
});

test('the first screen is ready before any chunk is asked for; the panels follow, the walkthrough when opened', () =>
  withPage(async (page, errors) => {
    const asked = recordWasm(page);
    // Holds the panels' chunk until the first screen was seen ready.
    let release;
    const held = new Promise((r) => (release = r));
    await page.route(PANELS_CHUNK, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(suite.server.url);
    await page.waitForSelector('body[data-ready="true"]');
    // The first screen works while the panels are on their way.
    assert.equal(await page.locator('#store-title').count(), 0, 'the store panel is not here yet');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await answeredRows(page).first().waitFor();
    release();
    await page.waitForSelector('body[data-settled="true"]');
    await page.locator('#store-title').waitFor();
    await page.locator('#share-title').waitFor();
    assert.equal(asked.filter((u) => PANELS_CHUNK.test(u)).length, 1, 'the panels\' chunk, once');
    assert.equal(asked.filter((u) => WALK_CHUNK.test(u)).length, 0, 'no walkthrough before it is opened');
    await page.getByRole('button', { name: 'Walkthrough' }).first().click();
    await page.getByTestId('narration').waitFor();
    assert.equal(asked.filter((u) => WALK_CHUNK.test(u)).length, 1, 'the walkthrough\'s chunk, once opened');
    assert.deepEqual(errors, []);
  }));

test('a chunk whose download fails is fetched again, and the part arrives', () =>
  withPage(async (page, errors) => {
    let failures = 0;
    await page.route(PANELS_CHUNK, async (route) => {
      if (failures < 2) {
        failures += 1;
        await route.abort('connectionreset');
      } else {
        await route.continue();
      }
    });
    await page.goto(suite.server.url);
    await page.waitForSelector('body[data-settled="true"]');
    await page.locator('#store-title').waitFor();
    assert.equal(failures, 2, 'two failed downloads, then the third arrived');
    assert.equal(await page.getByTestId('part-failed').count(), 0, 'nothing said: it arrived');
    assert.deepEqual(errors, []);
  }, { consoleErrors: false }));

for (const lang of ['en', 'fa']) {
  test(`a chunk that never arrives is said where its parts stand, in ${lang}; the rest works, and Try again brings them all`, () =>
    withPage(async (page, errors) => {
      let blocked = true;
      let asked = 0;
      await page.route(PANELS_CHUNK, async (route) => {
        asked += 1;
        if (blocked) await route.abort('internetdisconnected');
        else await route.continue();
      });
      await page.goto(`${suite.server.url}?lang=${lang}`);
      await page.waitForSelector('body[data-settled="true"]');
      const said = page.getByTestId('part-failed');
      // Storage, callers, queue, share, the explorer, your own scenarios and
      // store each say it; the embed dialog too, but only once it is asked
      // for; the promises and the chart, in the first load, are there all the same.
      assert.equal(await said.count(), 8);
      assert.equal(await page.locator('[data-testid="part-failed"]:visible').count(), 7);
      assert.equal(await page.locator('.embed-slot [data-testid="part-failed"]').isVisible(), false);
      await page.locator('#invariants-title').waitFor();
      await page.locator('#chart-title').waitFor();
      assert.ok(asked >= 3, `fetched three times before saying so (${asked})`);
      const text = (await said.first().locator('p').textContent()).trim();
      assert.ok(text.length > 20, text);
      assert.equal(await said.first().getAttribute('role'), 'alert');
      // The first screen is untouched: a grant goes through.
      await page.locator('.request button.primary').click();
      await rows(page).first().waitFor();
      blocked = false;
      // One part tried again arrives, and the others follow by themselves.
      await said.first().getByRole('button').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="part-failed"]').length === 0);
      await page.locator('#store-title').waitFor();
      await page.locator('#explorer-title').waitFor();
      assert.deepEqual(errors, []);
    }, { consoleErrors: false }));
}

test('a host that serves .wasm with another type still gets every chunk', () =>
  withPage(async (page, errors) => {
    await page.route(SPLIT_FILE, async (route) => {
      const response = await route.fetch();
      const type = route.request().url().endsWith('.wasm') ? 'application/octet-stream' : response.headers()['content-type'];
      await route.fulfill({ response, headers: { ...response.headers(), 'content-type': type } });
    });
    await page.goto(suite.server.url);
    await page.waitForSelector('body[data-settled="true"]');
    await page.locator('#store-title').waitFor();
    assert.equal(await page.getByTestId('part-failed').count(), 0);
    assert.deepEqual(errors, []);
  }));

const SESSIONS_CHUNK = /\/split_sessions-[0-9a-f]{16}\.wasm$/;

test('a first visit never fetches the sessions\' reader; a returning one does, before it is ready, and finds its work', () =>
  withPage(async (page, errors) => {
    const asked = recordWasm(page);
    await page.goto(suite.server.url);
    await page.waitForSelector('body[data-settled="true"]');
    assert.equal(asked.filter((u) => SESSIONS_CHUNK.test(u)).length, 0, 'nothing saved, nothing to read');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await answeredRows(page).first().waitFor();
    asked.length = 0;
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(asked.filter((u) => SESSIONS_CHUNK.test(u)).length, 1, 'the reader, for the saved session');
    assert.equal(await rows(page).count(), 1, 'the saved work is back');
    assert.deepEqual(errors, []);
  }));

test('a saved session whose reader does not arrive is said, kept, not saved over, and opens on the next reload', () =>
  withPage(async (page, errors) => {
    await page.goto(suite.server.url);
    await page.waitForSelector('body[data-settled="true"]');
    const send = page.getByRole('button', { name: 'Send', exact: true });
    for (let i = 0; i < 2; i += 1) {
      await send.click();
      await answeredRows(page).nth(i).waitFor();
    }
    await page.route(SESSIONS_CHUNK, (route) => route.abort('internetdisconnected'));
    await page.reload();
    await page.waitForSelector('body[data-settled="true"]');
    const notice = page.getByTestId('notice');
    await notice.waitFor();
    assert.match(await notice.textContent(), /could not be opened/);
    assert.equal(await notice.getAttribute('role'), 'alert');
    assert.equal(await rows(page).count(), 0, 'a new lab meanwhile');
    // Work done meanwhile is not saved over the old session.
    await send.click();
    await answeredRows(page).first().waitFor();
    await page.unroute(SESSIONS_CHUNK);
    await page.reload();
    await page.waitForSelector('body[data-settled="true"]');
    await answeredRows(page).nth(1).waitFor();
    assert.equal(await rows(page).count(), 2, 'the two saved sends, not the one made meanwhile');
    assert.deepEqual(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(e)), []);
  }, { consoleErrors: false }));

test('a permalink whose reader does not arrive stays in the address, and opens on the next reload', () =>
  withPage(async (page) => {
    await page.goto(`${suite.server.url}?settings=open`);
    await page.waitForSelector('body[data-settled="true"]');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await answeredRows(page).first().waitFor();
    await page.getByRole('button', { name: 'Copy link to this state' }).click();
    const link = await page.getByTestId('permalink').inputValue();
    const fresh = await page.context().newPage();
    await fresh.route(SESSIONS_CHUNK, (route) => route.abort('internetdisconnected'));
    await fresh.goto(link);
    await fresh.waitForSelector('body[data-settled="true"]');
    await fresh.getByTestId('notice').waitFor();
    assert.ok(fresh.url().includes('#state='), 'the link is still in the address');
    await fresh.unroute(SESSIONS_CHUNK);
    await fresh.reload();
    await fresh.waitForSelector('body[data-settled="true"]');
    await answeredRows(fresh).first().waitFor();
    assert.equal(await rows(fresh).count(), 1);
  }, { consoleErrors: false }));
