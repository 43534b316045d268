// Opens code-server with the `payload` that runs exthost/index.cjs inside the extension host (the code-server
// equivalent of @vscode/test-electron), waits for its result file and saves a screenshot.
import { chromium } from 'playwright-core';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const { CS_URL, RUN, WS, ARTIFACTS } = process.env;
const host = new URL(CS_URL).host;
const here = path.dirname(fileURLToPath(import.meta.url));
const result = path.join(RUN, 'exthost-result.json');
rmSync(result, { force: true });

const payload = JSON.stringify([
  ['extensionDevelopmentPath', `vscode-remote://${host}${path.join(here, 'exthost')}`],
  ['extensionTestsPath', `vscode-remote://${host}${path.join(here, 'exthost', 'index.cjs')}`],
]);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  // code-server prints a failing test run only to the browser console.
  page.on('console', (m) => /error|fail/i.test(m.text()) && console.log('[browser]', m.text().slice(0, 300)));
  await page.goto(`${CS_URL}/?folder=${encodeURIComponent(WS)}&payload=${encodeURIComponent(payload)}`);
  const end = Date.now() + 240_000;
  while (!existsSync(result) && Date.now() < end) await new Promise((r) => setTimeout(r, 250));
  await page.screenshot({ path: path.join(ARTIFACTS, 'exthost.png') }).catch(() => {});
  if (!existsSync(result)) {
    writeFileSync(result, JSON.stringify({ cases: [{ name: 'extension-host tests report a result', ok: false, error: 'no result within 240 s' }] }));
  }
} finally {
  await browser.close();
}
