// End-to-end: the page's Content-Security-Policy. The built page declares it in a
// <meta> (static files, any host), completed at build time by scripts/csp-hashes.mjs
// with the hash of Trunk's inline loader. Here: the policy allows nothing it should
// not, and a full walk through the lab, in English and in Persian, breaks none of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { labSuite, openLab, lastRow, skipToIdle, setSetting, speedControl, DIST } from './harness.mjs';

const suite = labSuite();
const { withLab } = suite;

/**
 * Runs in the page before any of its scripts: records every CSP violation, in the
 * tab's sessionStorage too, so that none is lost if the page navigates.
 */
function recordViolations() {
  const KEY = '__csp_violations';
  window.__cspViolations = [];
  try {
    window.__cspViolations = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
  } catch {
    // No storage here (a frame on an opaque origin): the list in the page is enough.
  }
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__cspViolations.push({
      directive: e.effectiveDirective,
      blocked: e.blockedURI,
      sample: e.sample,
      source: `${e.sourceFile}:${e.lineNumber}`,
    });
    try {
      sessionStorage.setItem(KEY, JSON.stringify(window.__cspViolations));
    } catch {
      // A test that takes storage away still has the list in the page.
    }
  });
}

const violations = (page) => page.evaluate(() => window.__cspViolations);

/** Parses a policy into { directive: [sources] }. */
function parsePolicy(text) {
  const policy = {};
  for (const part of text.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) policy[name.toLowerCase()] = sources;
  }
  return policy;
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

test('the built page declares a strict CSP in a meta tag, before any script or style', async () => {
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  const metas = [...html.matchAll(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/gi)];
  assert.equal(metas.length, 1, 'exactly one CSP meta');
  const metaAt = metas[0].index;
  const firstResource = html.search(/<script\b|<link\b[^>]*rel="(stylesheet|modulepreload|preload)"/i);
  assert.ok(firstResource > metaAt, 'the policy comes before the first script or stylesheet');

  const policy = parsePolicy(metas[0][1]);
  assert.deepEqual(policy['default-src'], ["'none'"]);
  assert.deepEqual(policy['object-src'], ["'none'"]);
  assert.deepEqual(policy['base-uri'], ["'none'"]);
  assert.deepEqual(policy['form-action'], ["'none'"]);
  assert.deepEqual(policy['style-src'], ["'self'"]);
  assert.deepEqual(policy['connect-src'], ["'self'"]);
  // The compiling worker and the offline copy's service worker; the web app manifest.
  assert.deepEqual(policy['worker-src'], ["'self'"]);
  assert.deepEqual(policy['manifest-src'], ["'self'"]);
  // "Embed on a page" measures the frame's height in a hidden frame of the lab itself.
  assert.deepEqual(policy['frame-src'], ["'self'"]);
  assert.deepEqual(policy['img-src'], ["'self'", 'data:'], 'the favicon is a data: URI');
  assert.equal(policy['frame-ancestors'], undefined, 'framing stays allowed (and a meta cannot set it)');

  const scriptSrc = policy['script-src'];
  assert.ok(scriptSrc, 'script-src is set');
  for (const forbidden of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'strict-dynamic'", '*', 'data:', 'blob:', 'http:', 'https:']) {
    assert.ok(!scriptSrc.includes(forbidden), `script-src has no ${forbidden}`);
  }
  assert.ok(scriptSrc.includes("'self'") && scriptSrc.includes("'wasm-unsafe-eval'"));
  assert.ok(!scriptSrc.includes("'inline-script-hashes'"), 'the build hook replaced its placeholder');
  for (const [directive, sources] of Object.entries(policy)) {
    for (const source of sources) {
      assert.match(source, /^('self'|'none'|'wasm-unsafe-eval'|'sha256-[A-Za-z0-9+/]+={0,2}'|data:)$/, `${directive}: no other origin or scheme (${source})`);
    }
  }

  // The hashes are exactly those of the inline scripts in the page, no more: the one
  // that picks the language before the first paint, and the Wasm loader.
  const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)].filter((m) => !/\bsrc\s*=/i.test(m[1]));
  assert.equal(inline.length, 2, 'two inline scripts: the language and the Wasm loader');
  assert.match(inline[0][2], /root\.lang = lang/);
  assert.match(inline[1][2], /import init/);
  assert.deepEqual(scriptSrc.filter((s) => s.startsWith("'sha256-")), inline.map((m) => sha256(m[2])));
});

test('the policy is enforced: an injected inline script is refused and reported', async () => {
  const lab = await openLab(suite.browser, suite.server, { query: '?lang=en', initScript: recordViolations });
  try {
    assert.deepEqual(await violations(lab.page), [], 'loading the lab breaks nothing');
    await lab.page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true;';
      document.head.append(script);
      const style = document.createElement('div');
      style.setAttribute('style', 'color: red');
      document.body.append(style);
    });
    await lab.page.waitForFunction(() => window.__cspViolations.length >= 2);
    assert.equal(await lab.page.evaluate(() => window.__injected), undefined, 'the inline script did not run');
    const seen = (await violations(lab.page)).map((v) => v.directive).sort();
    assert.deepEqual(seen, ['script-src-elem', 'style-src-attr']);
    // The browser says so in the console too: exactly these two, nothing else.
    assert.equal(lab.problems().length, 2, lab.problems().join('\n'));
    assert.ok(lab.problems().every((p) => /Content Security Policy/.test(p)), lab.problems().join('\n'));
  } finally {
    await lab.context.close();
  }
});

/** The names the walk presses, in each language. */
const TEXTS = {
  en: {
    send: 'Send', retrySame: 'Retry (same key)', retryFresh: 'Retry (fresh key)', loseAck: 'Lose acknowledgement',
    points: 'Points', burst: /^Burst: 20 grants at once/, checkBalance: 'Check balance', speed: 'Speed',
    processing: 'Processing time (ms)', pause: 'Pause consumer', restart: 'Restart process',
    naive: 'Naive worker beside', undo: 'Undo', redo: 'Redo', exportJson: 'Export JSON',
    copyLink: 'Copy link to this state', skip: 'Skip to idle', other: 'فارسی', otherLang: 'fa',
  },
  fa: {
    send: 'ارسال', retrySame: 'تلاش مجدد (همان کلید)', retryFresh: 'تلاش مجدد (کلید تازه)', loseAck: 'گم‌شدن تأیید',
    points: 'امتیاز', burst: /^هجوم: /, checkBalance: 'دیدن موجودی', speed: 'سرعت',
    processing: 'زمان پردازش (میلی‌ثانیه)', pause: 'توقف مصرف‌کننده', restart: 'راه‌اندازی مجدد فرایند',
    naive: 'worker ساده‌لوح در کنار', undo: 'واگرد', redo: 'انجام دوباره', exportJson: 'برون‌بُرد JSON',
    copyLink: 'رونوشت پیوند به همین وضعیت', skip: 'پرش تا بیکاری', other: 'English', otherLang: 'en',
  },
};

/** Everything a learner can do in the lab, once each, in language `lang`. */
async function fullWalk(page, lang) {
  const t = TEXTS[lang];
  const button = (name) => page.getByRole('button', { name, exact: typeof name === 'string' });
  const skip = () => skipToIdle(page, { name: t.skip });

  // The article's walk: a lost acknowledgement, a retry with the same key, the same
  // key with another payload (rejected), a retry with a fresh key.
  await page.getByLabel(t.loseAck, { exact: true }).check();
  await button(t.send).click();
  await skip();
  assert.equal(await lastRow(page).getAttribute('data-outcome'), 'timeout-applied');
  await button(t.retrySame).click();
  await skip();
  assert.equal(await lastRow(page).getAttribute('data-outcome'), 'replayed');
  await page.getByLabel(t.points, { exact: true }).fill('150');
  await button(t.send).click();
  await skip();
  assert.equal(await lastRow(page).getAttribute('data-outcome'), 'rejected');
  await button(t.retryFresh).click();
  await skip();
  assert.equal(await lastRow(page).getAttribute('data-outcome'), 'applied');
  // A burst into a paused queue, a balance read, the speed and the processing time.
  await page.getByLabel(t.pause, { exact: true }).check();
  await button(t.burst).click();
  await button(t.checkBalance).click();
  await speedControl(page, t.speed).selectOption({ index: 5 });
  await speedControl(page, t.speed).selectOption({ index: 0 });
  await setSetting(page, t.processing, 250);
  await page.getByLabel(t.pause, { exact: true }).uncheck();
  await skip();
  // A restart, and the naive worker beside.
  await button(t.restart).click();
  await page.getByRole('switch', { name: t.naive, exact: true }).check();
  await button(t.retrySame).click();
  await skip();
  assert.equal(await page.getByTestId('naive-balances').count(), 1);
  // Undo and redo, export, a permalink.
  await button(t.undo).click();
  await button(t.undo).click();
  await button(t.redo).click();
  const [download] = await Promise.all([page.waitForEvent('download'), button(t.exportJson).click()]);
  assert.ok(await download.path());
  await button(t.copyLink).click();
  const link = await page.getByTestId('permalink').inputValue();
  // The other language, and a last send there.
  await button(t.other).click();
  await page.locator(`html[lang="${t.otherLang}"]`).waitFor();
  await button(TEXTS[t.otherLang].send).click();
  await skipToIdle(page, { name: TEXTS[t.otherLang].skip });
  return link;
}

for (const lang of ['en', 'fa']) {
  test(`a full walk in ${lang === 'en' ? 'English' : 'Persian'} causes no CSP violation`, () =>
    withLab({ query: `?lang=${lang}`, initScript: recordViolations }, async (page) => {
      const link = await fullWalk(page, lang);
      // The session replayed from storage and from the link the walk made.
      await page.reload();
      await page.waitForSelector('body[data-settled="true"]');
      await page.goto(link);
      await page.waitForSelector('body[data-settled="true"]');
      assert.deepEqual(await violations(page), []);
    }));
}

test('embedded (?embed=1) in a frame on another page: no CSP violation', () =>
  withLab({ query: '?embed=1&lang=fa', initScript: recordViolations, viewport: { width: 390, height: 844 } }, async (page, lab) => {
    await page.getByRole('button', { name: TEXTS.fa.send, exact: true }).click();
    await skipToIdle(page, { name: TEXTS.fa.skip });
    assert.equal(await page.locator('html.embed').count(), 1);
    assert.deepEqual(await violations(page), []);
    // A documentation page (no policy of its own) that frames it; the init script runs in the frame too.
    const docs = await lab.context.newPage();
    await docs.setContent(`<h1>Docs</h1><iframe title="lab" src="${suite.server.url}?embed=1&lang=en" style="width:100%;height:700px"></iframe>`);
    const frame = docs.frames().find((f) => f !== docs.mainFrame());
    await frame.waitForSelector('body[data-settled="true"]');
    await frame.getByRole('button', { name: TEXTS.en.send, exact: true }).click();
    await frame.locator('[data-testid="clock"][data-idle="true"]').waitFor();
    assert.deepEqual(await frame.evaluate(() => window.__cspViolations), []);
  }));
