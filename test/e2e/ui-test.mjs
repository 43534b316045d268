// UI test: drives code-server (a real VS Code workbench) in headless Debian chromium and checks what a user
// sees with the installed .vsix: diagnostic in the Problems panel, field completion, the compiled JSON view
// (and that it follows edits), the budget in the status bar, grammar colours. Writes $RUN/ui-result.json.
import { chromium } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const { CS_URL, RUN, ARTIFACTS } = process.env;
const WS = path.join(RUN, 'ws-ui');
const expected = JSON.parse(readFileSync(new URL('./fixtures/expected.json', import.meta.url), 'utf8'));
const cases = [];
const shot = (page, name) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) }).catch(() => {});

async function step(page, name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    cases.push({ name, ok: true, ms: Date.now() - t0 });
  } catch (e) {
    cases.push({ name, ok: false, ms: Date.now() - t0, error: String(e?.stack ?? e).split('\n').slice(0, 4).join(' | ') });
    await shot(page, `failed-${name.replace(/[^a-z0-9]+/gi, '-')}`);
  }
}
const check = (cond, what) => {
  if (!cond) throw new Error(what);
};

async function openFile(page, name) {
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first().click({ timeout: 60000 });
  await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor({ timeout: 30000 });
}

async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 10000 });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10000 });
  await page.keyboard.press('Enter');
}

/** The text of the editor showing `uriPrefix`, in line order (view lines are positioned, not DOM-ordered). */
async function editorText(page, uriPrefix) {
  return page.evaluate((prefix) => {
    const editor = [...document.querySelectorAll('.monaco-editor[data-uri]')].find((e) => e.getAttribute('data-uri').startsWith(prefix));
    if (!editor) return null;
    return [...editor.querySelectorAll('.view-lines .view-line')]
      .map((l) => ({ top: parseFloat(l.style.top), text: l.textContent.replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.top - b.top)
      .map((l) => l.text)
      .join('\n');
  }, uriPrefix);
}

async function waitForJson(page, predicate, timeout = 20000) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    last = await editorText(page, 'logfilter-compiled:');
    try {
      if (last !== null && predicate(JSON.parse(last))) return JSON.parse(last);
    } catch {
      /* not JSON yet (still loading, or the error comment state) */
    }
    if (Date.now() > end) throw new Error(`compiled JSON view never matched; last text: ${JSON.stringify(last)}`);
    await page.waitForTimeout(200);
  }
}

const udd = mkdtempSync(path.join(os.tmpdir(), 'chromium-udd-'));
const ctx = await chromium.launchPersistentContext(udd, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1400, height: 900 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = ctx.pages()[0] ?? (await ctx.newPage());
const t0 = Date.now();
try {
  await step(page, 'workbench loads with the workspace', async () => {
    await page.goto(`${CS_URL}/?folder=${encodeURIComponent(WS)}`, { waitUntil: 'domcontentloaded', timeout: 120000 });
    await page.waitForSelector('.monaco-workbench', { timeout: 90000 });
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'broken.logfilter' }).waitFor({ timeout: 60000 });
  });

  await step(page, 'broken filter: squiggle and its diagnostic in the Problems panel', async () => {
    await openFile(page, 'broken.logfilter');
    await page.waitForSelector('.monaco-editor .squiggly-error', { timeout: 60000 });
    await page.keyboard.press('Control+Shift+M');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: expected.brokenCode });
    await row.first().waitFor({ timeout: 30000 });
    const text = await row.first().innerText();
    check(text.includes(`[Ln ${expected.brokenLine}, Col ${expected.brokenColumn}]`), `problem row at the wrong place: ${JSON.stringify(text)}`);
    await shot(page, 'problems-panel');
  });

  await step(page, 'language mode and grammar colours', async () => {
    await openFile(page, 'good.logfilter');
    // The language mode switches from Plain Text once the extension's contributions are registered.
    await page.locator('#status\\.editor\\.mode', { hasText: /logfilter/i }).waitFor({ timeout: 60000 });
    const colours = await page.evaluate(() => {
      const out = {};
      for (const s of document.querySelectorAll('.monaco-editor[data-uri$="good.logfilter"] .view-line span span')) {
        out[s.textContent.replace(/\u00a0/g, ' ').trim()] = getComputedStyle(s).color;
      }
      return out;
    });
    const field = colours.ClientRequestHost;
    const string = colours['"api.example.com"'];
    const number = colours['500'];
    const comment = colours['# Server errors of the API host'];
    check(field && string && number && comment, `tokens not found: ${JSON.stringify(colours)}`);
    check(new Set([field, string, number, comment]).size === 4, `field, string, number and comment share colours: ${JSON.stringify(colours)}`);
  });

  const goodBytes = Buffer.byteLength(JSON.stringify(expected.goodJson));
  await step(page, 'status bar shows the budget (operators and bytes of the limits)', async () => {
    const item = page.locator('.statusbar-item', { hasText: /\d+\/\d+.*\d+\/\d+/ });
    await item.first().waitFor({ timeout: 30000 });
    const text = await item.first().innerText();
    const m = /(\d+)\/(\d+)\D+(\d+)\/(\d+)/.exec(text);
    check(m, `no budget in ${JSON.stringify(text)}`);
    const [, ops, maxOps, bytes, maxBytes] = m.map(Number);
    check(ops === expected.goodOperators && maxOps === 30 && bytes === goodBytes && maxBytes === 1000, `budget ${text}, expected ${expected.goodOperators}/30 and ${goodBytes}/1000`);
    await shot(page, 'status-bar');
  });

  await step(page, 'Show Compiled JSON shows the compiled filter', async () => {
    await runCommand(page, 'Logfilter: Show Compiled JSON');
    await waitForJson(page, (j) => isDeepStrictEqual(j, expected.goodJson));
    await shot(page, 'compiled-json');
  });

  await step(page, 'completion offers fields', async () => {
    await page.locator('.monaco-editor[data-uri$="good.logfilter"] .view-lines').first().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('and Client');
    await page.keyboard.press('Control+Space');
    const rows = page.locator('.suggest-widget .monaco-list-row');
    await rows.first().waitFor({ timeout: 30000 });
    await page.waitForTimeout(300); // let the list settle before reading it
    const labels = (await rows.allInnerTexts()).map((t) => t.split('\n')[0].trim());
    await shot(page, 'completion');
    check(labels.some((l) => l.startsWith('ClientCountry')) && labels.some((l) => l.startsWith('ClientIP')), `suggestions: ${JSON.stringify(labels)}`);
    await page.keyboard.press('Escape');
  });

  await step(page, 'the compiled JSON view follows edits', async () => {
    await page.keyboard.type('Country == "us');
    const withCountry = { where: { and: [...expected.goodJson.where.and, { key: 'ClientCountry', operator: 'eq', value: 'us' }] } };
    await waitForJson(page, (j) => isDeepStrictEqual(j, withCountry));
    const item = page.locator('.statusbar-item', { hasText: `${expected.goodOperators + 1}/30` });
    await item.first().waitFor({ timeout: 20000 });
    await shot(page, 'compiled-json-follows-edits');
  });

  await step(page, 'overview screenshot for the README', async () => {
    await openFile(page, 'broken.logfilter');
    await runCommand(page, 'Logfilter: Show Compiled JSON');
    await page.locator('.monaco-editor[data-uri^="logfilter-compiled:/broken.logfilter.jsonc"]').waitFor({ timeout: 20000 });
    await page.locator('.monaco-editor[data-uri$="broken.logfilter"] .view-lines').first().click();
    await page.waitForTimeout(500); // status bar and the panels repaint after the focus change
    await shot(page, 'overview');
  });
} finally {
  writeFileSync(path.join(RUN, 'ui-result.json'), JSON.stringify({ cases, ms: Date.now() - t0 }, null, 2));
  await ctx.close();
  rmSync(udd, { recursive: true, force: true });
}
