// The moving picture, measured: with the network time at 400 ms and the CPU
// slowed 4x, a burst of 20 at 1x and a stress run of 10,000 at 1x, each
// watched for a few seconds of real time while its tokens travel. Prints the
// frames drawn beside the frames a 60 Hz screen would show (the rest dropped),
// the tasks over 50 ms and the longest task. Figures only; it asserts nothing.
// Run after a release build (scripts/build.sh), or through scripts/bench.sh.
import { serveDist, launchBrowser, setSetting, setSpeed } from '../e2e/harness.mjs';

const WATCH_MS = Number(process.env.BENCH_MOTION_MS ?? 4000);
// 0 measures the same without travel, the picture before messages took time.
const TRANSIT_MS = Number(process.env.BENCH_MOTION_TRANSIT ?? 400);
const RUNS = Number(process.env.BENCH_MOTION_RUNS ?? 3);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const server = await serveDist();
const browser = await launchBrowser();

/** Opens the lab with the CPU slowed 4x and the network time at TRANSIT_MS. */
async function openSlowed() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(`${server.url}?lang=en&settings=open`);
  await page.waitForSelector('body[data-settled="true"]');
  await setSetting(page, 'Network time each way (ms)', TRANSIT_MS);
  await setSpeed(page, '1x');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return { context, page };
}

/** Presses the burst's or the stress run's button, then counts frames and long tasks for WATCH_MS. */
async function watch(page, testId) {
  await page.evaluate(() => {
    const probe = { frames: 0, longTasks: [], tokensSeen: 0 };
    window.__motion = probe;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
    const frame = () => {
      probe.frames += 1;
      probe.tokensSeen = Math.max(probe.tokensSeen, document.querySelectorAll('[data-testid="stage-token"]').length);
      if (!probe.stop) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  const start = Date.now();
  const button = testId === 'burst'
    ? page.getByRole('button', { name: 'Burst: 20 grants at once', exact: true })
    : page.getByTestId(testId);
  await button.click();
  await page.waitForTimeout(WATCH_MS);
  const probe = await page.evaluate(() => {
    window.__motion.stop = true;
    return window.__motion;
  });
  const seconds = (Date.now() - start) / 1000;
  const expected = Math.round(seconds * 60);
  return {
    frames: probe.frames,
    dropped: Math.max(0, expected - probe.frames),
    expected,
    over50: probe.longTasks.filter((d) => d > 50).length,
    longest: probe.longTasks.length ? Math.max(...probe.longTasks) : 0,
    tokens: probe.tokensSeen,
  };
}

const results = {};
for (const [name, testId] of [['burst of 20', 'burst'], ['stress run of 10,000', 'stress']]) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const { context, page } = await openSlowed();
    runs.push(await watch(page, testId));
    await context.close();
  }
  results[name] = runs;
}
console.log(`\nThe moving picture (network time ${TRANSIT_MS} ms, 1x, CPU slowed 4x, ${WATCH_MS / 1000} s watched, median of ${RUNS}):`);
for (const [name, runs] of Object.entries(results)) {
  const m = (k) => median(runs.map((r) => r[k]));
  console.log(`  ${name.padEnd(22)} frames ${m('frames')} of ${m('expected')} (dropped ${m('dropped')}), tasks over 50 ms ${m('over50')}, longest task ${m('longest').toFixed(0)} ms, tokens drawn at most ${m('tokens')}   (goal: no task over 50 ms)`);
}
await browser.close();
server.close();
