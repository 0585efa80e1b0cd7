// Shared by the end-to-end tests: serve the release build under a sub-path, as a
// documentation site would, and drive it in the system Chromium.
import { createServer } from 'node:http';
import { gzipSync, brotliCompressSync, constants as zlib } from 'node:zlib';
import { readFile, stat, mkdir } from 'node:fs/promises';
import { before, after } from 'node:test';
import { extname, join, normalize, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The built site; `LAB_DIST` points elsewhere so parallel builds do not share one folder. */
export const DIST = process.env.LAB_DIST ?? join(ROOT, 'dist');
export const ARTIFACTS = process.env.LAB_ARTIFACTS ?? join(ROOT, 'e2e', 'artifacts');
/** The lab is served from here, never from "/", to prove it works on any sub-path. */
export const PREFIX = '/docs/idempotency/';

/** Brotli at its best quality, as a host precompressing its files would serve. */
export const brotli = (body) => brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/**
 * A static file server on an ephemeral loopback port, serving `root` under `prefix`.
 * With `compress`, as real static hosts do: brotli where the browser accepts it, else
 * gzip (each file compressed once, at the best level).
 */
export async function serveDist(root = DIST, prefix = PREFIX, { compress = false } = {}) {
  const server = await serveSites([{ root, prefix }], { compress });
  return { ...server, url: `${server.origin}${prefix}` };
}

/** One server for several sites, each `{ root, prefix, headers }` (headers added to each answer); options as `serveDist`. */
export async function serveSites(sites, { compress = false } = {}) {
  const packed = new Map();
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const site = sites.find(({ prefix }) => path.startsWith(prefix));
    if (!site) {
      res.writeHead(404).end('outside the lab');
      return;
    }
    let file = normalize(join(site.root, path.slice(site.prefix.length)));
    if (!file.startsWith(site.root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      const headers = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', ...(site.headers ?? {}) };
      const accepts = String(req.headers['accept-encoding'] ?? '');
      const encoding = !compress ? null : /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : null;
      if (!encoding) {
        res.writeHead(200, headers).end(body);
        return;
      }
      const key = `${encoding} ${file}`;
      if (!packed.has(key)) packed.set(key, encoding === 'br' ? brotli(body) : gzipSync(body, { level: 9 }));
      res.writeHead(200, { ...headers, 'content-encoding': encoding, vary: 'accept-encoding' }).end(packed.get(key));
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { origin: `http://127.0.0.1:${port}`, close: () => server.close() };
}

export async function launchBrowser() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // The lab keeps an offline copy through a service worker once it is ready; a
  // worker answers requests before `page.route` sees them, so every context
  // blocks it unless a test asks for it (`serviceWorkers: 'allow'`, the
  // offline tests).
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ serviceWorkers: 'block', ...options });
  const newPage = browser.newPage.bind(browser);
  browser.newPage = (options = {}) => newPage({ serviceWorkers: 'block', ...options });
  return browser;
}

/**
 * The address with `settings=open` added to its query (unless it says
 * `settings` already, or `settings` is not 'open'): every settings drawer open,
 * so a test reaches every control by its label, as the README tells outside
 * suites to.
 */
export function withSettings(query, settings = 'open') {
  if (settings !== 'open' || /[?&]settings=/.test(query)) return query;
  const hash = query.indexOf('#');
  const [search, fragment] = hash < 0 ? [query, ''] : [query.slice(0, hash), query.slice(hash)];
  return `${search}${search.includes('?') ? '&' : '?'}settings=open${fragment}`;
}

/**
 * Opens the lab and records every page error, console error and request to another
 * origin; `problems()` lists them so each test can assert there were none.
 */
export async function openLab(browser, server, { query = '', locale = 'en-US', viewport, deviceScaleFactor = 1, colorScheme = 'light', reducedMotion = 'no-preference', initScript, settings = 'open', instant = false } = {}) {
  const context = await browser.newContext({ locale, colorScheme, reducedMotion, deviceScaleFactor, viewport: viewport ?? { width: 1400, height: 1000 } });
  // Runs in the page before the lab does: how a test stages a hostile browser.
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} for ${r.url()}`);
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(server.origin) && !r.url().startsWith('data:')) {
      problems.push(`request to another origin: ${r.url()}`);
    }
  });
  await page.goto(server.url + withSettings(query, settings));
  await page.waitForSelector('body[data-settled="true"]');
  if (instant) await arriveAtOnce(page);
  return { page, context, problems: () => problems };
}

/**
 * Sets the network time to 0, as a person does in "Time and process" (in any
 * language): messages arrive at once. For a test about something else than the
 * network (the store's rules, a read's date, the queue's slots), so its
 * moments are the store's own. The first action of the session.
 */
export async function arriveAtOnce(page) {
  const input = page.locator('#transit-time');
  await input.fill('0');
  await input.press('Enter');
  await page.waitForFunction(() => document.querySelector('#transit-time')?.value === '0');
}

export const rows = (page) => page.locator('[data-testid="timeline-row"]');
export const lastRow = (page) => rows(page).last();
/** Rows whose caller has heard something: a row is there, pending, from the moment its request is sent. */
export const answeredRows = (page) => page.locator('[data-testid="timeline-row"]:not([data-outcome="pending"])');

export async function balanceOf(page, account) {
  return (await page.getByTestId(`balance-${account}`).textContent()).trim();
}

export async function naiveBalanceOf(page, account) {
  return (await page.getByTestId(`naive-balance-${account}`).textContent()).trim();
}

/** The world's clock paragraph: `data-now` (virtual ms), `data-process`, `data-idle`. */
export const clock = (page) => page.getByTestId('clock');
export const virtualNow = async (page) => Number(await clock(page).getAttribute('data-now'));
export const isIdle = async (page) => (await clock(page).getAttribute('data-idle')) === 'true';

/**
 * Presses "Skip to idle" (in any language) unless the world is idle already, then
 * waits until nothing more is due. The world may go idle by itself between the
 * look and the press: the button is then disabled, and a forced press on it does
 * nothing. `name` also checks the button's name, for a test in another language.
 */
export async function skipToIdle(page, { name = null, timeout = 30_000 } = {}) {
  const skip = page.getByTestId('skip-to-idle');
  if (name !== null) assert.equal((await skip.textContent()).trim(), name);
  if (!(await isIdle(page))) await skip.click({ force: true });
  await page.locator('[data-testid="clock"][data-idle="true"]').waitFor({ timeout });
}

/** Types a number of milliseconds into a setting's field and commits it with Enter. */
export async function setSetting(page, label, value) {
  const input = page.getByLabel(label, { exact: true });
  await input.fill(String(value));
  await input.press('Enter');
  return input;
}

/**
 * The speed control, by its accessible name. (Its label wraps the select, so
 * Playwright's label text includes the options; the accessible name is "Speed".)
 */
export const speedControl = (page, name = 'Speed') => page.getByRole('combobox', { name, exact: true });

/** Chooses a speed by its label: "Clock stopped", "0.25x", ... "4x". */
export async function setSpeed(page, label, { control = 'Speed' } = {}) {
  await speedControl(page, control).selectOption({ label });
}

/** Runs `body(page, lab)` on a fresh lab, then checks it saw no error of any kind. */
export async function checkedLab(browser, server, options, body) {
  const lab = await openLab(browser, server, options);
  try {
    await body(lab.page, lab);
    assert.deepEqual(lab.problems(), [], 'no page error, console error or foreign request');
  } finally {
    await lab.context.close();
  }
}

/**
 * For a test file: one server and one browser for all its tests, started before
 * and closed after them. `suite.withLab(options, body)` runs a checked lab.
 */
export function labSuite() {
  const suite = {
    withLab: (options, body) => checkedLab(suite.browser, suite.server, options, body),
  };
  before(async () => {
    suite.server = await serveDist();
    suite.browser = await launchBrowser();
    await mkdir(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await suite.browser?.close();
    suite.server?.close();
  });
  return suite;
}
