// The docs author's page, measured: two lesson frames pasted from the "Embed
// on a page" dialog (s2 from step 1, s4 from step 2) into a 756 px column of
// another origin, loaded on a throttled link (1.6 Mbps down, 150 ms). Prints
// the host page's cumulative layout shift, when each frame first told its
// height and what it was beside the height the snippet reserved, and the
// bytes each frame downloaded (the second should reuse the first's). Figures
// only; it asserts nothing. Run after a release build (scripts/build.sh), or
// through scripts/bench.sh.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveSites, launchBrowser, DIST, PREFIX } from '../e2e/harness.mjs';

const RUNS = Number(process.env.BENCH_EMBED_RUNS ?? 3);
const THROTTLE = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const docsRoot = await mkdtemp(join(tmpdir(), 'lab-bench-embed-'));
// The lab as a static host serves it: compressed, and kept by the browser a while.
const lab = await serveSites([{ root: DIST, prefix: PREFIX, headers: { 'cache-control': 'public, max-age=600' } }], { compress: true });
const docs = await serveSites([{ root: docsRoot, prefix: '/guide/' }], { compress: true });
const labUrl = `${lab.origin}${PREFIX}`;
const browser = await launchBrowser();

/** The dialog's snippet for a lesson at `scenario`/`step`, as an author copies it. */
async function lessonSnippet(scenario, step) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${labUrl}?lang=en&settings=open&scenario=${scenario}&step=${step}`);
  await page.waitForSelector('body[data-settled="true"]');
  await page.getByTestId('walkthrough').waitFor();
  await page.getByRole('button', { name: 'Embed on a page' }).click();
  await page.getByRole('dialog', { name: 'Embed this lab on a page' }).waitFor();
  await page.waitForTimeout(300);
  await page.locator('#embed-height:not([data-measuring])').waitFor({ timeout: 60_000 });
  const code = await page.getByTestId('embed-snippet').inputValue();
  await context.close();
  return code;
}

const snippets = [await lessonSnippet('s2', 1), await lessonSnippet('s4', 2)];
const reserved = snippets.map((code) => Number(code.match(/height="(\d+)"/)[1]));
/** The docs page with `codes` pasted in a 756 px column. */
const guidePage = (codes) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Retries, a guide</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin: 0; font: 16px/1.5 sans-serif"><main style="max-width: 756px; margin: 0 auto; padding: 1rem">
<h1>Retries, a guide</h1><p>Why a retried job must not grant twice. Try it below.</p>
${codes[0]}
<p>Now a second lesson, a little further.</p>
${codes[1]}
<p>The rest of the guide.</p>
</main></body></html>`;
await writeFile(join(docsRoot, 'guide.html'), guidePage(snippets));
// Beside it, the same snippets with a height that is a guess (400 px), as a
// hand-written frame has: what the reserved height saves.
await writeFile(join(docsRoot, 'guessed.html'), guidePage(snippets.map((code) => code.replace(/height="\d+"/, 'height="400"'))));

for (const [name, file, heights] of [["the dialog's snippets", 'guide.html', reserved], ['the same, 400 px high', 'guessed.html', [400, 400]]]) {
console.log(`-- ${name}`);
const shifts = [];
for (let run = 0; run < RUNS; run += 1) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', THROTTLE);
  await page.addInitScript((docsOrigin) => {
    if (location.origin !== docsOrigin) return;
    window.shift = 0;
    window.told = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.shift += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
    addEventListener('message', (e) => {
      if (e.data?.type === 'idempotency-lab:resize') told.push({ id: e.data.id, at: performance.now(), height: e.data.height });
    });
  }, docs.origin);
  const bytes = new Map();
  page.on('requestfinished', async (request) => {
    if (!request.url().startsWith(lab.origin)) return;
    const frame = request.frame();
    const key = frame === page.mainFrame() ? 'host' : frame.url().match(/id=([\w-]+)/)?.[1] ?? frame.url();
    // What came over the network: nothing for an answer from the browser's cache.
    const sizes = await request.sizes().catch(() => null);
    bytes.set(key, (bytes.get(key) ?? 0) + (sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0));
  });
  const started = Date.now();
  await page.goto(`${docs.origin}/guide/${file}`);
  const ids = snippets.map((code) => code.match(/id=([\w-]+)/)[1]);
  for (let i = 0; i < 2; i += 1) {
    const frame = await (await page.locator('iframe').nth(i).elementHandle()).contentFrame();
    await frame.waitForSelector('body[data-settled="true"]', { timeout: 120_000 });
  }
  await page.waitForTimeout(2000);
  const { shift, told } = await page.evaluate(() => ({ shift: window.shift, told: window.told }));
  shifts.push(shift);
  console.log(`run ${run + 1}: host layout shift ${shift.toFixed(3)} (${((Date.now() - started) / 1000).toFixed(1)} s to both lessons)`);
  ids.forEach((id, i) => {
    const mine = told.filter((t) => t.id === id);
    const first = mine[0];
    console.log(`  frame ${i + 1} (${id}): reserved ${heights[i]} px; first height ${first ? `${first.height} px at ${(first.at / 1000).toFixed(1)} s` : 'none'}; ${mine.length} resize message(s), last ${mine.at(-1)?.height ?? '-'} px; downloaded ${((bytes.get(id) ?? 0) / 1024).toFixed(1)} KB`);
  });
  await context.close();
}
console.log(`host layout shift with ${name}, median of ${RUNS}: ${median(shifts).toFixed(3)} (goal: at most 0.05)`);
}
await browser.close();
lab.close();
docs.close();
