// End-to-end: the balance chart can be read. A labelled value axis, the timeline's
// attempt numbers under the marks, the same facts in words and as a table, in
// English and Persian; and after a stress run, the balance line drawn above the
// marks, visible at every attempt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { labSuite, rows, skipToIdle, ARTIFACTS } from './harness.mjs';

const suite = labSuite();
const { withLab } = suite;

const button = (page, name) => page.getByRole('button', { name, exact: true });
const chart = (page) => page.locator('section.chart');
const texts = (locator) => locator.evaluateAll((els) => els.map((e) => e.textContent.trim()));
const valueLabels = (page) => texts(page.locator('[data-testid="value-ticks"] text'));
const attemptLabels = (page) => texts(page.locator('[data-testid="attempt-ticks"] text'));
/** The timeline's first column: the attempt numbers a learner reads there. */
const timelineNumbers = (page) => texts(rows(page).locator('td:first-child'));

/** A lost acknowledgement, its retry, a second grant, then the first key again. */
async function lesson(page) {
  await page.getByLabel('Lose acknowledgement', { exact: true }).check();
  await button(page, 'Send').click();
  await skipToIdle(page);
  await button(page, 'Retry (same key)').click();
  await skipToIdle(page);
  await page.getByLabel('Key').fill('order-1043');
  await page.getByLabel('Points').fill('25');
  await button(page, 'Send').click();
  await skipToIdle(page);
  await page.getByLabel('Key').fill('order-1042');
  await page.getByLabel('Points').fill('100');
  await button(page, 'Send').click();
  await skipToIdle(page);
  assert.equal(await rows(page).count(), 4);
}

/**
 * Each value label's middle, beside the height of its grid line on screen (the
 * grid path is one `M0 y H600` per tick, bottom to top like the labels).
 */
async function labelsBesideGridLines(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('[data-testid="balance-chart"]');
    const ctm = svg.getScreenCTM();
    const ys = [...svg.querySelector('.chart-grid').getAttribute('d').matchAll(/M[\d.]+ ([\d.]+)H/g)].map(
      (m) => new DOMPoint(0, Number(m[1])).matrixTransform(ctm).y,
    );
    const labels = [...document.querySelectorAll('[data-testid="value-ticks"] text')].map((label) => {
      const r = label.getBoundingClientRect();
      return r.top + r.height / 2;
    });
    return { ys, labels };
  });
}

/** Points at each attempt label's place on the plot; returns the attempt the read-out names. */
async function attemptsUnderLabels(page) {
  await page.locator('.chart-hover').scrollIntoViewIfNeeded();
  const area = await page.locator('.chart-hover').boundingBox();
  const found = [];
  for (const label of await page.locator('[data-testid="attempt-ticks"] text').all()) {
    const box = await label.boundingBox();
    await page.mouse.move(box.x + box.width / 2, area.y + area.height / 2);
    const readout = page.getByTestId('chart-readout');
    assert.ok(await readout.isVisible(), 'the read-out shows while pointing');
    found.push(await readout.getAttribute('data-attempt'));
    found.words = (await readout.textContent()).replace(/[\u2068\u2069]/g, '');
  }
  await page.mouse.move(0, 0);
  assert.ok(!(await page.getByTestId('chart-readout').isVisible()), 'and hides when the pointer leaves');
  return found;
}

test('the chart: a labelled value axis, the timeline’s attempt numbers, and a text equivalent, in English and Persian', () =>
  withLab({ viewport: { width: 1024, height: 1100 } }, async (page) => {
    await lesson(page);
    const numbers = await timelineNumbers(page);
    assert.deepEqual(numbers, ['1', '2', '3', '4']);

    // The value axis: named, with round ticks from 0 past the highest balance,
    // each label level with its grid line.
    assert.equal((await chart(page).locator('.axis-name.value').textContent()).trim(), 'Balance (points)');
    assert.deepEqual(await valueLabels(page), ['0', '50', '100', '150']);
    const { ys, labels } = await labelsBesideGridLines(page);
    assert.equal(ys.length, labels.length);
    ys.forEach((y, i) => assert.ok(Math.abs(y - labels[i]) <= 2, `label ${i} at ${labels[i]}, its line at ${y}`));

    // The attempt axis: the numbers of the timeline's first column, in its order,
    // each under its own attempt (pointing there names that attempt).
    assert.match(await chart(page).locator('.axis-name.attempts').textContent(), /Attempt # \(as in the timeline’s first column\)/);
    assert.deepEqual(await attemptLabels(page), numbers);
    const under = await attemptsUnderLabels(page);
    assert.deepEqual([...under], numbers);
    assert.equal(under.words, '#4 · Current balance right after: 125 · Stored receipt: receipt, balance 100 (older than the current balance)');
    const receipts = await page.locator('.receipt-mark').evaluate((e) => ({ ...e.dataset }));
    const withReceipt = await rows(page).evaluateAll((els) =>
      els.filter((e) => e.dataset.receiptBalance).map((e) => [e.querySelector('td').textContent.trim(), e.dataset.receiptBalance]),
    );
    assert.deepEqual(receipts.attempts.split(' '), withReceipt.map(([n]) => n), 'receipt marks name their attempts');
    assert.deepEqual(receipts.balances.split(' '), withReceipt.map(([, b]) => b));
    assert.equal(await page.locator('.unseen-mark').getAttribute('data-attempts'), '1');
    // The older receipt stands below the line with a connector, not as a drop in it.
    assert.equal((await page.locator('.chart-connector').getAttribute('d')).match(/M/g).length, 1);

    // In words: the picture's description, and the table on request.
    const svg = page.getByTestId('balance-chart');
    assert.equal(await svg.getAttribute('role'), 'img');
    assert.equal(await svg.getAttribute('aria-describedby'), 'chart-summary');
    const summary = page.locator('#chart-summary');
    assert.match(await summary.textContent(), /^Attempts 1 to 4 \(4 drawn\): the current balance went from 0 to 125\./);
    assert.match(await summary.textContent(), /3 receipts reached callers, 1 of them showing a balance older than the current one; 1 grant applied without the caller getting the receipt\./);
    assert.doesNotMatch(await summary.textContent(), /scale starts/, 'this scale starts at 0');
    await page.getByText('The chart as a table', { exact: true }).click();
    const table = page.getByTestId('chart-table');
    assert.match(await table.locator('caption').textContent(), /Every attempt drawn \(4\), oldest first\./);
    const cells = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
    assert.deepEqual(cells.map((c) => c[0]), numbers);
    assert.deepEqual(
      cells.map((c) => c[1]),
      await rows(page).evaluateAll((els) => els.map((e) => e.dataset.currentBalance)),
    );
    // Numbers in the words are set apart (first-strong isolates) from the prose.
    const iso = (n) => `\u2068${n}\u2069`;
    assert.deepEqual(cells.map((c) => c[2]), [
      `Timeout, but applied: no receipt reached the caller; it would say ${iso(100)}`,
      `Stored receipt: receipt, balance ${iso(100)}`,
      `Applied: receipt, balance ${iso(125)}`,
      `Stored receipt: receipt, balance ${iso(100)} (older than the current balance)`,
    ]);
    await chart(page).screenshot({ path: join(ARTIFACTS, 'chart-en.png') });

    // Persian: the words change, and every number is written in Persian digits,
    // the attempt labels as the timeline writes them; attributes keep ASCII ones.
    const fa = (list) => list.map((n) => n.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d]));
    await button(page, 'فارسی').click();
    await page.locator('html[lang="fa"]').waitFor();
    assert.equal((await chart(page).locator('.axis-name.value').textContent()).trim(), 'موجودی (امتیاز)');
    assert.match(await chart(page).locator('.axis-name.attempts').textContent(), /شماره‌ی تلاش/);
    assert.deepEqual(await valueLabels(page), ['۰', '۵۰', '۱۰۰', '۱۵۰']);
    assert.deepEqual(await timelineNumbers(page), fa(numbers));
    assert.deepEqual(await attemptLabels(page), fa(numbers));
    const faUnder = await attemptsUnderLabels(page);
    assert.deepEqual([...faUnder], numbers, 'the read-out names its attempt in ASCII for suites');
    assert.equal(faUnder.words, '#۴، موجودی فعلی درست پس از آن: ۱۲۵، رسید ذخیره‌شده: رسید، موجودی ۱۰۰ (قدیمی‌تر از موجودی فعلی)');
    const faSummary = await summary.textContent();
    assert.match(faSummary, /^تلاش‌های \u2068۱\u2069 تا \u2068۴\u2069 \(۴ تلاش رسم شده\): موجودی فعلی از \u2068۰\u2069 به \u2068۱۲۵\u2069 رسید\./);
    assert.doesNotMatch(faSummary, /\d/, 'no ASCII digit in Persian words');
    assert.match(faSummary, /فراخواننده‌ها ۳ رسید گرفتند که ۱ تا از آن‌ها/);
    assert.equal(await table.locator('caption').textContent(), 'همه‌ی تلاش‌های رسم‌شده (۴)، به ترتیب از قدیمی‌ترین.');
    const faCells = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
    assert.deepEqual(faCells.map((c) => c.slice(0, 2)), cells.map((c) => fa(c.slice(0, 2))), 'numbers as in the timeline, in Persian digits');
    assert.equal(faCells[3][2], `رسید ذخیره‌شده: رسید، موجودی ${iso('۱۰۰')} (قدیمی‌تر از موجودی فعلی)`);
    // The plot keeps its left-to-right order: the oldest attempt on the left.
    const [first, last] = await Promise.all([0, 3].map((i) => page.locator('[data-testid="attempt-ticks"] text').nth(i).boundingBox()));
    assert.ok(first.x < last.x);
    await chart(page).screenshot({ path: join(ARTIFACTS, 'chart-fa.png') });
  }));

/** The colour of each sampled point of an element's screenshot, read in a blank page. */
async function pixelsAt(context, png, points) {
  const blank = await context.newPage();
  try {
    return await blank.evaluate(
      async ({ b64, points }) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const g = canvas.getContext('2d');
        g.drawImage(img, 0, 0);
        return points.map(([x, y]) => [...g.getImageData(Math.round(x), Math.round(y), 1, 1).data].slice(0, 3));
      },
      { b64: png.toString('base64'), points },
    );
  } finally {
    await blank.close();
  }
}

test('after a stress run the balance line is drawn above the marks and shows at every attempt', () =>
  withLab({ viewport: { width: 1024, height: 900 } }, async (page, lab) => {
    await page.getByTestId('stress').click();
    // Under way (the page draws a big batch a moment later): then skip to its end.
    await page.locator('[data-testid="stress"][aria-disabled="true"]').waitFor();
    await skipToIdle(page, { timeout: 60_000 });
    await page.locator('[data-testid="timeline"][data-answered="10000"]').waitFor({ timeout: 60_000 });

    // The scale is zoomed on the balances drawn, and says so.
    const values = (await valueLabels(page)).map(Number);
    assert.ok(values[0] > 0, `the axis starts above 0: ${values}`);
    assert.ok(values.every((v, i) => i === 0 || v > values[i - 1]));
    assert.match(await page.locator('#chart-summary').textContent(), new RegExp(`The scale starts at ${values[0]}, not at 0\\.`));
    assert.match(await page.locator('#chart-summary').textContent(), /^Attempts \d+ to 10000 \(120 drawn\)/);
    assert.ok(Number(await page.locator('.receipt-below').getAttribute('data-count')) > 0, 'older receipts in the band below the axis');
    // A few attempt labels, the newest one the timeline's last row.
    const labels = await attemptLabels(page);
    assert.equal(labels.length, 6);
    assert.equal(labels.at(-1), (await timelineNumbers(page)).at(-1));

    // Paint order: the line comes after every mark.
    const order = await page.evaluate(() => {
      const svg = document.querySelector('[data-testid="balance-chart"]');
      return [...svg.querySelectorAll('path, polyline')].map((e) => e.getAttribute('class'));
    });
    const line = order.indexOf('current-line');
    for (const mark of ['receipt-mark', 'receipt-hole', 'unseen-mark', 'receipt-below', 'chart-connector']) {
      assert.ok(order.indexOf(mark) >= 0 && order.indexOf(mark) < line, `${mark} under the line: ${order}`);
    }

    // And on screen: at every attempt's corner of the line (where its mark sits)
    // and halfway to the next, the pixel is the line's colour.
    const svg = page.getByTestId('balance-chart');
    const { points, colour } = await svg.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const ctm = el.getScreenCTM();
      const line = el.querySelector('.current-line');
      const corners = [...line.points].map((p) => new DOMPoint(p.x, p.y).matrixTransform(ctm));
      const at = [];
      // Corners come in pairs per attempt (old balance, new balance); the new one
      // is where the attempt's mark is drawn.
      for (let i = 2; i < corners.length - 1; i += 2) {
        at.push([corners[i].x - box.left, corners[i].y - box.top]);
        const next = corners[i + 1];
        at.push([(corners[i].x + next.x) / 2 - box.left, corners[i].y - box.top]);
      }
      const rgb = getComputedStyle(line).stroke.match(/\d+/g).map(Number);
      return { points: at, colour: rgb };
    });
    assert.ok(points.length >= 200, `${points.length} points sampled`);
    const pixels = await pixelsAt(lab.context, await svg.screenshot(), points);
    const off = pixels.filter((p) => p.some((c, i) => Math.abs(c - colour[i]) > 48));
    assert.ok(off.length <= points.length * 0.03, `${off.length} of ${points.length} points of the line are covered: ${JSON.stringify(off.slice(0, 5))}`);
    await chart(page).screenshot({ path: join(ARTIFACTS, 'chart-stress.png') });
  }));
