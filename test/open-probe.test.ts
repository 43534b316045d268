/**
 * The e2e suite's clock of an open (test/e2e/open-probe.mjs), in headless Chromium on a page that plays a
 * workbench: a click on an Explorer row, then a tab, an editor with text and tokens, a squiggle. Each moment
 * must be the page's own time of the change (a MutationObserver's, not a poll's): at or after the change,
 * and before the next task the page ran after it. Skipped where Chromium is not installed (the e2e suite
 * installs it: test/e2e/setup.sh).
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
// @ts-expect-error: a plain .mjs module of the e2e suite, without type declarations
import { armOpen, openMoments } from './e2e/open-probe.mjs';

const CHROMIUM = '/usr/bin/chromium';

/**
 * The fake workbench: on pointerdown on the row, each step is one task after the previous (setTimeout), and
 * the page notes (wall clock, as the probe does) when it made each change and when its next task ran.
 */
const WORKBENCH = `<!doctype html><body>
<div class="explorer-folders-view"><div class="monaco-list-row" id="row">broken.rule</div></div>
<div class="tabs-container" id="tabs"></div><div id="editors"></div>
<script>
(() => {
  window.changed = {};
  window.nextTask = {};
  const wall = () => performance.timeOrigin + performance.now();
  const later = (name, ms, change) => setTimeout(() => {
    change();
    window.changed[name] = wall();
    setTimeout(() => (window.nextTask[name] = wall()));
  }, ms);
  document.getElementById('row').addEventListener('pointerdown', () => {
    // another file's editor first: the probe must wait for this file's
    later('other', 10, () => (editors.innerHTML = '<div class="monaco-editor" data-uri="file:///ws/x.broken.rule"><div class="view-lines"><div class="view-line">other</div></div><i class="squiggly-error"></i></div>'));
    later('tab', 40, () => (tabs.innerHTML = '<div class="tab active">broken.rule</div>'));
    later('editor', 80, () => editors.insertAdjacentHTML('beforeend', '<div class="monaco-editor" data-uri="file:///ws/broken.rule"><div class="view-lines"><div class="view-line"></div></div></div>'));
    later('text', 120, () => (document.querySelector('[data-uri="file:///ws/broken.rule"] .view-line').innerHTML = '<span><span class="mtk1">http.hots</span></span>'));
    later('tokens', 160, () => (document.querySelector('[data-uri="file:///ws/broken.rule"] .view-line span span').className = 'mtk7'));
    later('squiggle', 300, () => document.querySelector('[data-uri="file:///ws/broken.rule"]').insertAdjacentHTML('beforeend', '<div class="cdr squiggly-error"></div>'));
  });
})();
</script></body>`;

describe.skipIf(!existsSync(CHROMIUM))('open probe (the e2e suite clock of an open)', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage();
  });
  afterAll(async () => browser?.close());

  it("records each moment of the open when the page changed, by the page's clock", async () => {
    await page.setContent(WORKBENCH);
    await armOpen(page, 'broken.rule');
    await page.locator('#row').click();
    const m = (await openMoments(page, 20000)) as Record<string, number>;
    // the page's globals (the test's tsconfig has no DOM types)
    const { changed, nextTask } = (await page.evaluate(() => {
      const g = globalThis as unknown as { changed: Record<string, number>; nextTask: Record<string, number> };
      return { changed: g.changed, nextTask: g.nextTask };
    })) as Record<string, Record<string, number>>;
    expect(Object.keys(m).sort()).toEqual(['click', 'editor', 'painted', 'squiggle', 'tab', 'text', 'tokens']);
    // the click is the input event's time, before anything it caused
    expect(m.click).toBeLessThanOrEqual(changed.other);
    for (const k of ['tab', 'editor', 'text', 'tokens', 'squiggle']) {
      // seen in the task that made the change (a microtask after it), not by a later poll
      expect(m[k], k).toBeGreaterThanOrEqual(changed[k] - 1);
      expect(m[k], k).toBeLessThanOrEqual(nextTask[k]);
    }
    // the other file's editor (with its squiggle) did not count
    expect(m.editor).toBeGreaterThanOrEqual(changed.editor - 1);
    // painted: the frame after the squiggle
    expect(m.painted).toBeGreaterThanOrEqual(m.squiggle);
  });

  it('ends a plain-text open at its text (showing the piece asked for), and says what it saw when the end never comes', async () => {
    await page.setContent(WORKBENCH);
    await armOpen(page, 'broken.rule', null, 'text');
    await page.locator('#row').click();
    const m = (await openMoments(page, 20000)) as Record<string, number>;
    expect(m.text).toBeGreaterThan(m.click);
    expect(m.squiggle).toBeUndefined();

    // the text must show the piece asked for (a reused editor widget can still show the previous file's lines)
    await page.setContent(WORKBENCH);
    await armOpen(page, 'broken.rule', null, 'text', 'http.hots');
    await page.locator('#row').click();
    expect(((await openMoments(page, 20000)) as Record<string, number>).text).toBeGreaterThan(0);
    await page.setContent(WORKBENCH);
    await armOpen(page, 'broken.rule', null, 'text', 'not in the file');
    await page.locator('#row').click();
    await expect(openMoments(page, 1500)).rejects.toThrow(/moments so far \{"click":[\d.]+,"tab":[\d.]+,"editor":[\d.]+\}/);

    await page.setContent(WORKBENCH);
    await armOpen(page, 'broken.rule', '.squiggly-warning');
    await page.locator('#row').click();
    await expect(openMoments(page, 1500)).rejects.toThrow(/broken\.rule: moments so far .*"text"/);
  });
});
