// Lighthouse in its default mobile preset (simulated slow 4G: 150 ms round trip,
// 1.6 Mbps, CPU slowed 4x) on the system Chromium, as the benchmark reports it.
// Lighthouse lives in bench/lighthouse/node_modules (scripts/bench.sh installs it),
// so the test run never downloads it.
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = join(dirname(fileURLToPath(import.meta.url)), 'lighthouse', 'node_modules');
const { default: lighthouse } = await import(pathToFileURL(join(HERE, 'lighthouse', 'core', 'index.js')));
const chromeLauncher = await import(pathToFileURL(join(HERE, 'chrome-launcher', 'dist', 'index.js')));

const AUDITS = {
  fcpMs: 'first-contentful-paint',
  lcpMs: 'largest-contentful-paint',
  tbtMs: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  bytes: 'total-byte-weight',
};

/** One Lighthouse run of `url`, each in a fresh Chromium (a cold cache). */
async function once(url) {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? process.env.CHROMIUM ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const { lhr } = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    });
    const figures = {
      performance: Math.round(lhr.categories.performance.score * 100),
      accessibility: Math.round(lhr.categories.accessibility.score * 100),
    };
    for (const [name, audit] of Object.entries(AUDITS)) figures[name] = lhr.audits[audit].numericValue;
    return figures;
  } finally {
    await chrome.kill();
  }
}

/** `runs` runs of `url`, each run's figures. */
export async function lighthouseRuns(url, runs) {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await once(url));
  return all;
}
