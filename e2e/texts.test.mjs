// End-to-end: the page's words are data, one file per language (texts/<tag>.json),
// and a visitor downloads only their own language's. Apart from index.html's
// first paint (which holds every language: the browser chooses before the Wasm
// runs), a Persian first load carries no English text of the page, and the
// reverse; switching language fetches the other file then, and a file that does
// not load is said, with the page left as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { labSuite, openLab, DIST } from './harness.mjs';

const suite = labSuite();

const LANGS = { en: { other: 'fa', name: 'English' }, fa: { other: 'en', name: 'فارسی' } };

/** Every text of a language file, each form of a message on its own. */
function textsOf(tag) {
  const file = JSON.parse(readFileSync(join(DIST, 'texts', `${tag}.json`), 'utf8'));
  return Object.values(file.texts).flatMap((m) => (typeof m === 'string' ? [m] : Object.entries(m).filter(([k]) => k !== 'by').map(([, v]) => v)));
}

/**
 * The pieces of a language's texts that no other language could hold by
 * chance: the words between placeholders, long enough to be prose (a lone
 * "Key" or a shortcut's "Esc" is not).
 */
function prose(tag) {
  return [...new Set(textsOf(tag).flatMap((t) => t.split(/\{[^}]*\}/)).map((s) => s.trim()).filter((s) => s.length >= 16 && /\s/.test(s)))];
}

/** Every file a first visit downloads, by path, as the browser got it. */
async function firstLoad(lang) {
  const context = await suite.browser.newContext({ locale: lang === 'fa' ? 'fa-IR' : 'en-US' });
  const page = await context.newPage();
  const bodies = new Map();
  const pending = [];
  page.on('response', (r) => {
    pending.push(r.body().then((b) => bodies.set(new URL(r.url()).pathname, b), () => {}));
  });
  await page.goto(suite.server.url);
  await page.waitForSelector('body[data-settled="true"]');
  await Promise.all(pending);
  return { page, context, bodies };
}

for (const [lang, { other }] of Object.entries(LANGS)) {
  test(`a first load in ${lang} fetches only its own texts and carries no ${other} text of the page outside index.html`, async () => {
    const { context, bodies } = await firstLoad(lang);
    try {
      const paths = [...bodies.keys()];
      assert.ok(paths.some((p) => p.endsWith(`/texts/${lang}.json`)), `no texts/${lang}.json in ${paths}`);
      assert.ok(!paths.some((p) => p.endsWith(`/texts/${other}.json`)), `texts/${other}.json was fetched: ${paths}`);
      const foreign = prose(other);
      assert.ok(foreign.length > 200, `only ${foreign.length} pieces of ${other} prose to look for`);
      for (const [path, body] of bodies) {
        if (path.endsWith('/') || path.endsWith('/index.html')) continue;
        // A style sheet's comments are for its authors; a visitor never sees them.
        // A data file is read as its values (its escapes, such as \u2068, undone).
        const raw = body.toString('utf8');
        const text = path.endsWith('.css') ? raw.replace(/\/\*[\s\S]*?\*\//g, '') : path.endsWith('.json') ? JSON.stringify(JSON.parse(raw)) : raw;
        const found = foreign.filter((piece) => text.includes(piece));
        assert.deepEqual(found, [], `${path} carries ${other} text`);
      }
      // And the test sees a language's text where it is: its own file, as served.
      const own = bodies.get(paths.find((p) => p.endsWith(`/texts/${lang}.json`))).toString('utf8');
      assert.deepEqual(JSON.parse(own), JSON.parse(readFileSync(join(DIST, 'texts', `${lang}.json`), 'utf8')));
    } finally {
      await context.close();
    }
  });
}

/** A message the page could not find (shown as its `[key]`) or a placeholder left unfilled. */
const GAP = /\[[a-z_]+(\.[a-z0-9_]+)*\]|\{[a-z_]+\}/;

test('switching language fetches the other texts once, and the page speaks it', async () => {
  await suite.withLab({ locale: 'en-US' }, async (page) => {
    assert.doesNotMatch(await page.locator('body').innerText(), GAP);
    const fetched = [];
    page.on('request', (r) => {
      if (r.url().includes('/texts/')) fetched.push(new URL(r.url()).pathname.split('/').pop());
    });
    await page.getByRole('button', { name: 'فارسی' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'fa');
    assert.equal(await page.locator('h1').textContent(), 'آزمایشگاه ایدمپوتنسی');
    assert.doesNotMatch(await page.locator('body').innerText(), GAP);
    await page.getByRole('button', { name: 'English' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await page.getByRole('button', { name: 'فارسی' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'fa');
    assert.deepEqual(fetched, ['fa.json']);
  });
});

test('a language whose texts do not load is said, and the page stays in its language', async () => {
  const context = await suite.browser.newContext({ locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.route('**/texts/fa.json', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.goto(suite.server.url);
    await page.waitForSelector('body[data-settled="true"]');
    await page.getByRole('button', { name: 'فارسی' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'could not switch to فارسی' });
    await alert.waitFor();
    assert.match(await alert.textContent(), /texts\/fa\.json: HTTP 404/);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await page.locator('h1').textContent(), 'Idempotency Lab');
  } finally {
    await context.close();
  }
});

for (const [lang, { name }] of Object.entries(LANGS)) {
  test(`a first load whose texts do not load says so in ${name}, in place of a lab that cannot start`, async () => {
    const context = await suite.browser.newContext({ locale: lang === 'fa' ? 'fa-IR' : 'en-US' });
    try {
      const page = await context.newPage();
      await page.route('**/texts/*.json', (route) => route.fulfill({ status: 500, body: 'down' }));
      await page.goto(suite.server.url);
      const said = page.locator(`.boot[data-boot="${lang}"] .boot-failed`);
      await said.waitFor({ state: 'visible' });
      const words = textsOf(lang);
      assert.ok(words.includes((await said.textContent()).trim()));
      assert.match(await said.getAttribute('title'), /HTTP 500/);
      assert.equal(await page.evaluate(() => document.body.dataset.ready), undefined);
    } finally {
      await context.close();
    }
  });
}

test('a key in Persian letters is drawn joined, in the page face, while a Latin key keeps its monospace face', () =>
  suite.withLab({ query: '?lang=fa' }, async (page) => {
    await page.getByLabel('کلید', { exact: true }).fill('سفارش-قهوه');
    await page.getByRole('button', { name: 'ارسال', exact: true }).click();
    const key = page.locator('.timeline .key').first();
    await key.waitFor();
    // Joined letters take the width they take in the page's own face; a
    // monospace face draws each letter alone, in a cell of its own.
    const widths = await key.evaluate((k) => {
      const measure = (text, family) => {
        const span = document.createElement('span');
        span.textContent = text;
        span.className = family ? '' : 'key';
        if (family) span.style.fontFamily = family;
        span.style.whiteSpace = 'nowrap';
        // Measured in a box of its own, shown whatever layout the row is in.
        span.style.position = 'fixed';
        document.body.append(span);
        const width = span.getBoundingClientRect().width;
        span.remove();
        return width;
      };
      return {
        persianKey: measure('سفارش', null),
        persianPage: measure('سفارش', 'system-ui, sans-serif'),
        persianMono: measure('سفارش', 'monospace'),
        latinKey: measure('iiiii', null),
        latinWide: measure('mmmmm', null),
      };
    });
    assert.ok(Math.abs(widths.persianKey - widths.persianPage) < 0.5, JSON.stringify(widths));
    assert.ok(Math.abs(widths.persianKey - widths.persianMono) > 1, JSON.stringify(widths));
    // Monospace for Latin: a narrow letter takes a wide one's room.
    assert.ok(Math.abs(widths.latinKey - widths.latinWide) < 0.5, JSON.stringify(widths));
  }));
