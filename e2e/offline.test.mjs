// End-to-end: the offline copy (issue 30). After one visit, the sandbox, the
// walkthrough in the other language and the explorer's chunk open with the
// network off, on a reload and in a new tab; a new build installs in the
// background and waits until the person takes it, then replaces every file
// at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { serveDist, launchBrowser, DIST, rows } from './harness.mjs';

let server;
let browser;
before(async () => {
  server = await serveDist();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.close();
});

async function filesOf(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesOf(path)));
    else out.push(relative(DIST, path).split(sep).join('/'));
  }
  return out;
}

const versionOf = (sw) => sw.match(/const VERSION = "([0-9a-f]{16})";/)?.[1];

/** A context that lets the lab keep its offline copy, with its page errors counted. */
async function offlineContext() {
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const problems = [];
  context.on('page', (page) => {
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  });
  return { context, problems };
}

test('the build keeps every one of its files, under a version of its own', async () => {
  const sw = await readFile(join(DIST, 'sw.js'), 'utf8');
  const kept = JSON.parse(sw.match(/const FILES = (\[.*\]);/)[1]);
  const all = (await filesOf(DIST)).filter((f) => f !== 'sw.js').sort();
  assert.deepEqual(kept, all);
  for (const needed of ['index.html', 'texts/fa.json', 'walkthrough/fa.json', 'offline.js', 'manifest.webmanifest']) {
    assert.ok(kept.includes(needed), needed);
  }
  assert.ok(kept.some((f) => /^split_explorer-[0-9a-f]{16}\.wasm$/.test(f)), 'the chunks too');
  assert.ok(versionOf(sw), 'a version');
  assert.match(await readFile(join(DIST, 'index.html'), 'utf8'), /<meta name="offline-copy" content="sw.js" \/>/);
  const manifest = JSON.parse(await readFile(join(DIST, 'manifest.webmanifest'), 'utf8'));
  assert.equal(manifest.start_url, './');
  assert.ok(kept.includes(manifest.icons[0].src));
});

test('after one visit the sandbox, the walkthrough and the explorer open with the network off', async () => {
  const { context, problems } = await offlineContext();
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  await page.goto(`${server.url}?lang=en`);
  await page.waitForSelector('body[data-ready="true"]');
  const atReady = requests.length;
  assert.ok(!requests.some((u) => u.endsWith('/sw.js') || u.endsWith('/offline.js')), 'nothing of the offline copy before the lab is ready');
  await page.waitForSelector('body[data-offline="ready"]', { timeout: 60_000 });
  assert.ok(requests.length > atReady);

  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('body[data-settled="true"]');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await rows(page).first().waitFor();
  // The explorer's chunk, never fetched online, comes from the copy.
  await page.getByTestId('explorer').click();
  await page.locator('[data-testid="explorer"][data-state="broken"]').waitFor({ timeout: 60_000 });

  const tab = await context.newPage();
  await tab.goto(`${server.url}?scenario=s3&step=2&lang=fa`);
  await tab.waitForSelector('body[data-settled="true"]');
  await tab.locator('[data-testid="step-counter"][data-step="2"]').waitFor();
  assert.match(await tab.getByTestId('narration').textContent(), /[۰-۹]/);
  assert.deepEqual(problems, []);
  await context.close();
});

/** A teacher's scenario of one step, as a `#teach=` link's token (raw deflate, base64url). */
function teachToken() {
  const file = {
    format: 'idempotency-lab-scenario',
    version: 1,
    scripts: {
      scenarios: [{
        id: 'teacher',
        steps: [{ actions: [{ send: { grant: { key: 'k', account_id: 'alice', points: 100 }, lose_acknowledgement: false } }], idle: true }],
        challenge: [],
        solution: [],
      }],
    },
    languages: {
      en: { language: 'en', scenarios: { teacher: { title: 'Kept offline', steps: [{ narration: 'Alice has {balance:alice} points.' }], challenge: '', hint: '', challenge_met: '' } } },
    },
  };
  return deflateRawSync(Buffer.from(JSON.stringify(file))).toString('base64url');
}

test('a teacher\'s scenario opened once plays with the network off, in a new tab', async () => {
  const { context, problems } = await offlineContext();
  const page = await context.newPage();
  await page.goto(`${server.url}?lang=en#teach=${teachToken()}`);
  await page.getByTestId('walk-guest').waitFor();
  await page.waitForSelector('body[data-offline="ready"]', { timeout: 60_000 });
  await context.setOffline(true);
  const tab = await context.newPage();
  await tab.goto(`${server.url}?lang=en`);
  await tab.waitForSelector('body[data-settled="true"]');
  const kept = tab.getByTestId('teacher-panel').getByTestId('my-scenario');
  assert.match(await kept.textContent(), /Kept offline/);
  await kept.getByTestId('play-scenario').click();
  assert.match(await tab.getByTestId('walk-guest').textContent(), /Teacher's scenario: Kept offline/);
  assert.match(await tab.getByTestId('narration').textContent(), /Alice has 100 points\./);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a new build installs in the background and waits until the person takes it', async () => {
  const root = await mkdtemp(join(tmpdir(), 'lab-release-'));
  await cp(DIST, root, { recursive: true });
  const site = await serveDist(root);
  const { context, problems } = await offlineContext();
  try {
    const page = await context.newPage();
    await page.goto(`${site.url}?lang=en`);
    await page.waitForSelector('body[data-offline="ready"]', { timeout: 60_000 });
    const before = versionOf(await readFile(join(root, 'sw.js'), 'utf8'));
    assert.deepEqual(await page.evaluate(() => caches.keys()), [`idempotency-lab-${before}`]);

    // A release: a file changes, and with it the worker's version.
    const texts = join(root, 'texts', 'en.json');
    await writeFile(texts, `${await readFile(texts, 'utf8')}\n`);
    const after = 'f'.repeat(16);
    const sw = await readFile(join(root, 'sw.js'), 'utf8');
    await writeFile(join(root, 'sw.js'), sw.replace(`"${before}"`, `"${after}"`));

    await page.reload();
    await page.waitForSelector('body[data-settled="true"]');
    await page.getByTestId('take-update').waitFor({ timeout: 60_000 });
    assert.match(await page.getByTestId('notice').textContent(), /A new version of the lab is ready/);
    // Until taken, this page runs the old build, whole.
    assert.deepEqual((await page.evaluate(() => caches.keys())).sort(), [`idempotency-lab-${before}`, `idempotency-lab-${after}`].sort());

    await Promise.all([page.waitForEvent('load'), page.getByTestId('take-update').click()]);
    await page.waitForSelector('body[data-settled="true"]');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    assert.deepEqual(await page.evaluate(() => caches.keys()), [`idempotency-lab-${after}`], 'the old files went together');
    assert.equal(await page.getByTestId('take-update').count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    site.close();
    await rm(root, { recursive: true, force: true });
  }
});
