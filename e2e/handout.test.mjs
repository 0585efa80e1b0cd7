// End-to-end: the walkthrough's printed handout (issue 30). A section's
// `Print handout` prints the student's copy (questions with room to answer,
// the steps that would give an answer away left for notes), `Print teacher's
// copy` every step and the answer key on a page of its own; in the page's
// language and direction, and nothing else of the page on paper.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { labSuite, ARTIFACTS } from './harness.mjs';

const suite = labSuite();

/** Replaces the print dialog: counts prints and notes what `<html>` said while printing. */
const stubPrint = () => {
  window.print = () => {
    window.printed = (window.printed ?? 0) + 1;
    window.printedWhile = document.documentElement.className;
  };
};

const printed = (page, n) => page.waitForFunction((n) => window.printed === n, n);

test('the teacher\'s copy of s4 in Persian: every step, both questions, the answer key on its own page', () =>
  suite.withLab({ query: '?scenario=s4&step=1&lang=fa', initScript: stubPrint }, async (page) => {
    await page.getByTestId('print-teacher').click();
    await printed(page, 1);
    assert.match(await page.evaluate(() => window.printedWhile), /\bprinting-handout\b/, 'the page prints the handout alone');
    assert.doesNotMatch(await page.evaluate(() => document.documentElement.className), /printing-handout/, 'and is itself again after');
    const sheet = page.getByTestId('handout');
    assert.equal(await sheet.getAttribute('data-scenario'), 's4');
    assert.equal(await sheet.getAttribute('data-copy'), 'teacher');
    assert.equal(await sheet.getAttribute('dir'), 'rtl');
    assert.equal(await sheet.getAttribute('lang'), 'fa');
    assert.equal(await sheet.isVisible(), false, 'not on the screen');
    assert.equal(await page.getByTestId('handout-question').count(), 2);
    // Each step's picture beside its text, people named as the narration names them.
    const steps = await sheet.locator('.handout-step').count();
    assert.equal(await page.getByTestId('handout-picture').count(), steps);
    assert.match(await page.getByTestId('handout-picture').last().textContent(), /آلیس/);
    assert.doesNotMatch(await page.getByTestId('handout-picture').last().textContent(), /alice/);
    const key = await page.getByTestId('handout-key').textContent();
    assert.match(key, /پرسش ۱: ۲۰۰/);
    assert.match(key, /پرسش ۲: رد می‌شود؛ چیزی تغییر نمی‌کند/);
    assert.doesNotMatch(key, /[0-9]/, 'Persian digits throughout');
    // On paper: the handout alone, the key on a page of its own.
    await page.evaluate(() => document.documentElement.classList.add('printing-handout'));
    await page.emulateMedia({ media: 'print' });
    assert.equal(await sheet.isVisible(), true);
    assert.equal(await page.locator('main.lab').isVisible(), false, 'none of the page');
    await page.screenshot({ path: join(ARTIFACTS, 'handout-s4-fa-teacher.png'), fullPage: true });
    const pdf = await page.pdf({ format: 'A4', printBackground: false });
    await writeFile(join(ARTIFACTS, 'handout-s4-fa-teacher.pdf'), pdf);
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length;
    assert.ok(pages >= 2, `${pages} pages: the answer key starts one of its own`);
    // The walkthrough is where it was.
    await page.emulateMedia({ media: 'screen' });
    assert.equal(await page.getByTestId('step-counter').getAttribute('data-step'), '1');
  }));

test('the student\'s copy leaves the revealing steps for notes and has no answer key', () =>
  suite.withLab({ query: '?scenario=s4&step=3&lang=en', initScript: stubPrint }, async (page) => {
    await page.getByRole('button', { name: 'Print handout' }).click();
    await printed(page, 1);
    const sheet = page.getByTestId('handout');
    assert.equal(await sheet.getAttribute('data-copy'), 'student');
    assert.equal(await sheet.getAttribute('dir'), 'ltr');
    assert.equal(await page.getByTestId('handout-key').count(), 0);
    const questions = page.getByTestId('handout-question');
    assert.equal(await questions.count(), 2);
    assert.match(await questions.first().textContent(), /^Question 1 .*What will Alice's balance be\?Your answer:/);
    assert.equal(await questions.nth(1).locator('li').count(), 3, 'a choice question lists its choices');
    const text = await sheet.textContent();
    // The steps after each question show its answer: on the student's copy, room to note it.
    assert.equal(await sheet.locator('.handout-observe').count(), 2);
    // A picture beside every step but those: it would tell what to note.
    const steps = await sheet.locator('.handout-step').count();
    assert.equal(await page.getByTestId('handout-picture').count(), steps - 2);
    assert.equal(await sheet.locator('.handout-step:has(.handout-observe) [data-testid="handout-picture"]').count(), 0);
    assert.doesNotMatch(text, /Alice has 200/);
    assert.match(text, /Name:/);
    // Printed again, as the teacher's copy: the same sheet, now with the key.
    await page.getByTestId('print-teacher').click();
    await printed(page, 2);
    assert.equal(await sheet.getAttribute('data-copy'), 'teacher');
    assert.equal(await page.getByTestId('handout-key').count(), 1);
    await page.evaluate(() => document.documentElement.classList.add('printing-handout'));
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: join(ARTIFACTS, 'handout-s4-en-teacher.png'), fullPage: true });
  }));
