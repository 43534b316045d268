// The playground tested as a person uses it: `logfilter playground` serves the built site, Debian's chromium
// (driven by playwright-core, as in test/e2e) loads it, and each case types, pastes, drops and clicks. Prints
// every case, the figures measured (first load size, first paint, completion and diagnostics latency, scan
// speed against `logfilter eval`) and `N passed, N failed`; exit 1 on any failure. Screenshots go to
// $ARTIFACTS/playground (default <repo>/test-artifacts/playground).
// Env: PLAYGROUND_BIG_MB (size of the large-file case, default 50), CHROMIUM (default /usr/bin/chromium).
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { once } from 'node:events';
import { readConformance, describeRange } from './fixtures.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(REPO, 'packages/cli/bin/logfilter.cjs');
const SITE = path.join(REPO, 'packages/cli/dist/playground-site');
const ARTIFACTS = path.join(process.env.ARTIFACTS ?? path.join(REPO, 'test-artifacts'), 'playground');
const BIG_MB = Number(process.env.PLAYGROUND_BIG_MB ?? 50);
const MAX_FIRST_LOAD_GZIP = 400 * 1024;

if (!existsSync(path.join(SITE, 'index.html'))) {
  console.error(`no built playground in ${SITE}: run \`npm run build\` first`);
  process.exit(2);
}
// a fresh folder each run: no screenshot of an earlier failure left to mislead
rmSync(ARTIFACTS, { recursive: true, force: true });
mkdirSync(ARTIFACTS, { recursive: true });
const scratch = mkdtempSync(path.join(os.tmpdir(), 'logfilter-playground-'));

const cases = [];
const info = {};
const errors = [];
const shot = (page, name) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true }).catch(() => {});
const check = (cond, what) => {
  if (!cond) throw new Error(what);
};
const equal = (actual, expected, what) => check(JSON.stringify(actual) === JSON.stringify(expected), `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);

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

const percentile = (xs, p) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const ms = (x) => `${x.toFixed(1)} ms`;

// ---- the server, as a user starts it

const server = spawn(process.execPath, [BIN, 'playground', '--port', '0', '--no-open'], { stdio: ['ignore', 'pipe', 'pipe'] });
let serverOut = '';
server.stdout.on('data', (d) => (serverOut += d));
server.stderr.on('data', (d) => (serverOut += d));
const URL_ = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`logfilter playground printed no URL: ${serverOut}`)), 30000);
  server.stdout.on('data', () => {
    const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(serverOut);
    if (m) {
      clearTimeout(timer);
      resolve(m[0]);
    }
  });
  server.once('exit', (code) => reject(new Error(`logfilter playground exited ${code}: ${serverOut}`)));
});

const udd = mkdtempSync(path.join(os.tmpdir(), 'chromium-udd-'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function openPage(url = URL_, context) {
  const ctx = context ?? (await browser.newContext({ viewport: { width: 1300, height: 1000 } }));
  const page = await ctx.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${page.url().slice(0, 40)}: ${m.text().slice(0, 300)}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${String(e).slice(0, 300)}`));
  // anything but the page's own files (and blob: workers) would be the page sending data somewhere
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(URL_) && !u.startsWith('blob:') && !u.startsWith('file:') && !u.startsWith('data:')) errors.push(`request to ${u}`);
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready=true]', { timeout: 60000 });
  return page;
}

const editor = (page) => page.locator('#source-editor .cm-content');
const editorText = (page) => page.evaluate(() => window.logfilterPlayground.source());
async function clearEditor(page) {
  await editor(page).click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
}
const completionLabels = (page) => page.locator('.cm-tooltip-autocomplete .cm-completionLabel').allInnerTexts();

// ---- the page's own figures

const page = await openPage();

await step(page, 'first load: size gzipped, first paint, no request outside the page', async () => {
  const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).concat(location.href));
  let gz = 0;
  for (const u of new Set(loaded)) {
    const rel = new URL(u).pathname.replace(/^\//, '') || 'index.html';
    check(existsSync(path.join(SITE, rel)), `the page loaded ${u}, which is not one of its files`);
    gz += gzipSync(readFileSync(path.join(SITE, rel))).length;
  }
  const paint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? performance.getEntriesByType('paint')[0]?.startTime);
  info['first load (gzip)'] = `${(gz / 1024).toFixed(0)} KB`;
  info['first contentful paint'] = ms(paint ?? NaN);
  check(gz <= MAX_FIRST_LOAD_GZIP, `first load is ${gz} bytes gzipped, over ${MAX_FIRST_LOAD_GZIP}`);
  check(await page.locator('#privacy').isVisible(), 'the note that nothing is sent is shown');
  await shot(page, 'first-load');
});

await step(page, 'typing key by key with completion compiles the filter', async () => {
  await clearEditor(page);
  await page.keyboard.type('Bot', { delay: 60 });
  await page.locator('.cm-tooltip-autocomplete li', { hasText: 'BotScore' }).first().waitFor({ timeout: 10000 });
  // the dataset's fields: those starting with Bot first (CodeMirror also lists fuzzy matches after them)
  const labels = await completionLabels(page);
  check(labels.includes('BotScore') && labels.slice(0, 5).every((l) => l.startsWith('Bot')), `fields for "Bot": ${JSON.stringify(labels)}`);
  await page.keyboard.type('S', { delay: 60 });
  await page.waitForFunction(() => document.querySelector('.cm-tooltip-autocomplete li[aria-selected]')?.innerText.startsWith('BotScore'));
  await shot(page, 'completion');
  await page.keyboard.press('Enter');
  equal(await editorText(page), 'BotScore', 'the completion replaced the word');
  await page.keyboard.type(' ', { delay: 60 });
  await page.locator('.cm-tooltip-autocomplete li', { hasText: '<' }).first().waitFor({ timeout: 10000 });
  await page.keyboard.type('< 30 and Cl', { delay: 60 });
  await page.locator('.cm-tooltip-autocomplete li', { hasText: 'ClientCountry' }).first().waitFor({ timeout: 10000 });
  await page.locator('.cm-tooltip-autocomplete li', { hasText: /^ClientCountry/ }).first().click();
  await page.keyboard.type(' == "fr"', { delay: 60 });
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.querySelector('#json').value.includes('"fr"'));
  equal(JSON.parse(await page.inputValue('#json')), { where: { and: [{ key: 'BotScore', operator: 'lt', value: 30 }, { key: 'ClientCountry', operator: 'eq', value: 'fr' }] } }, 'compiled JSON');
  equal(JSON.parse(JSON.parse(await page.inputValue('#escaped'))), JSON.parse(await page.inputValue('#json')), 'the job-body string holds the same filter');
  check(/^2 \/ 30 operators · \d+ \/ 1000 bytes/.test(await page.locator('#budget').innerText()), 'the budget shows 2 of 30 operators');
});

await step(page, 'hover explains a field', async () => {
  await page.evaluate((t) => window.logfilterPlayground.setSource(t), 'BotScore < 30\n');
  await page.locator('#source-editor .tok-field', { hasText: 'BotScore' }).hover();
  const tip = page.locator('.cm-tooltip-hover');
  await tip.waitFor({ timeout: 10000 });
  check((await tip.innerText()).includes('BotScore'), 'the field is named in its hover');
  await shot(page, 'hover');
  await page.mouse.move(0, 0);
});

await step(page, 'diagnostics at the right place, and a fix applied', async () => {
  await clearEditor(page);
  await page.keyboard.type('ClientCountry == "fr" and BotScor < 30', { delay: 20 });
  await page.keyboard.press('Escape');
  const problem = page.locator('#problems li[data-code=unknown-field]');
  await problem.waitFor({ timeout: 10000 });
  equal(await problem.getAttribute('data-range'), '26-33', 'the unknown field is reported on its own span');
  // the editor underlines exactly that word
  await page.locator('#source-editor .cm-lintRange-error').first().waitFor({ timeout: 10000 });
  equal(await page.locator('#source-editor .cm-lintRange-error').allInnerTexts(), ['BotScor'], 'the squiggle');
  await shot(page, 'diagnostic');
  await problem.locator('button.fix').first().click();
  equal(await editorText(page), 'ClientCountry == "fr" and BotScore < 30', 'the fix renamed the field');
  await page.waitForFunction(() => document.querySelectorAll('#problems li').length === 0);
  await page.locator('#source-editor .cm-lintRange-error').waitFor({ state: 'detached', timeout: 10000 });
});

await step(page, 'JSON pasted is decompiled, keeping its dataset', async () => {
  const job = JSON.stringify({ dataset: 'dns_logs', filter: '{"where":{"and":[{"key":"QueryName","operator":"contains","value":"example"},{"key":"QueryType","operator":"eq","value":28}]}}' });
  await page.locator('#json').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(job);
  await page.waitForFunction(() => window.logfilterPlayground.source().startsWith('dataset dns_logs'), null, { timeout: 10000 });
  equal(await editorText(page), 'dataset dns_logs\n\nQueryName contains "example" and QueryType == 28\n', 'decompiled source');
  equal(await page.inputValue('#dataset'), 'dns_logs', 'the dataset chooser follows the job');
  await page.locator('#escaped').click();
  equal(JSON.parse(JSON.parse(await page.inputValue('#escaped'))).where.and[0].key, 'QueryName', 'the job-body string follows');
  // a broken paste is answered in place, the source kept
  await page.locator('#json').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText('{"where":{"key":"QueryName","operator":"contains"');
  await page.locator('#json-problems li').first().waitFor({ timeout: 10000 });
  check((await page.locator('#json-problems li').first().getAttribute('data-code')) === 'invalid-json', 'broken JSON is reported as invalid-json');
  check((await editorText(page)).startsWith('dataset dns_logs'), 'the source is kept on a broken paste');
  await shot(page, 'json-pasted');
  // leaving the box shows the source's JSON again, and the paste's problems go with it
  await editor(page).click();
  await page.waitForFunction(() => document.querySelectorAll('#json-problems li').length === 0);
  check((await page.inputValue('#json')).includes('"QueryName"'), 'the JSON box shows the source again');
  // the dataset chooser rewrites the source's dataset line, and the fields are checked against the new one
  await page.selectOption('#dataset', 'firewall_events');
  check((await editorText(page)).startsWith('dataset firewall_events\n'), 'the dataset line follows the chooser');
  await page.locator('#problems li[data-code=unknown-field]').first().waitFor({ timeout: 10000 });
});

// ---- logs: a .gz dropped, counts equal to `logfilter eval`'s

function makeLogs(file, lines, gzip) {
  const out = [];
  for (let i = 0; i < lines; i++) {
    if (i % 501 === 7) out.push('{not json');
    else out.push(JSON.stringify({ ClientCountry: ['fr', 'de', 'us', 'jp'][i % 4], BotScore: (i * 7) % 100, EdgeResponseStatus: [200, 404, 503][i % 3], ClientRequestPath: `/item/${i}?q=${'x'.repeat(i % 40)}` }));
  }
  const text = `${out.join('\n')}\n`;
  writeFileSync(file, gzip ? gzipSync(text) : text);
}

function cliEval(filterSource, file, workers) {
  const filterFile = path.join(scratch, 'f.logfilter');
  writeFileSync(filterFile, filterSource);
  const args = [BIN, 'eval', filterFile, file, '--json', '--no-progress', ...(workers !== undefined ? ['--workers', String(workers)] : [])];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0]);
}

async function scanDone(page) {
  await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('#counts').dataset.state ?? ''), null, { timeout: 300000 });
  return page.evaluate(() => ({ ...document.querySelector('#counts').dataset }));
}

async function dropFile(page, file, name) {
  const bytes = readFileSync(file).toString('base64');
  await page.evaluate(
    ({ bytes, name }) => {
      const data = Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([data], name));
      const target = document.querySelector('#drop');
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { bytes, name },
  );
}

const FILTER = 'BotScore < 30 and ClientCountry in ["fr", "de"] or EdgeResponseStatus == 503';

await step(page, 'a .gz dropped: matched and total equal logfilter eval, explain for a line', async () => {
  const gz = path.join(scratch, 'logs.ndjson.gz');
  makeLogs(gz, 20000, true);
  const cli = cliEval(FILTER, gz);
  await page.evaluate(() => document.querySelector('#counts').removeAttribute('data-state'));
  await page.evaluate((t) => window.logfilterPlayground.setSource(t), FILTER);
  await page.selectOption('#dataset', 'http_requests');
  await dropFile(page, gz, 'logs.ndjson.gz');
  const counts = await scanDone(page);
  equal(counts.state, 'done', 'scan state');
  equal({ total: Number(counts.total), matched: Number(counts.matched) }, { total: cli.total, matched: cli.matched }, 'page vs logfilter eval');
  info['gz drop (20000 lines)'] = `page ${counts.matched}/${counts.total} = cli ${cli.matched}/${cli.total}`;
  // explain the first listed line
  await page.locator('#matches button').first().click();
  await page.locator('#explain li').first().waitFor();
  check((await page.locator('#explain p').innerText()).includes('keeps'), 'a listed line is one the filter keeps');
  const rows = await page.locator('#explain li').evaluateAll((els) => els.map((e) => [e.dataset.id, e.className]));
  equal(rows[0], ['/where', 'held'], 'the root held');
  await shot(page, 'gz-dropped-explain');
});

await step(page, 'a damaged .gz is answered with an error, not a hang', async () => {
  const bad = path.join(scratch, 'bad.gz');
  writeFileSync(bad, readFileSync(path.join(scratch, 'logs.ndjson.gz')).subarray(0, 3000));
  await page.evaluate(() => document.querySelector('#counts').removeAttribute('data-state'));
  await dropFile(page, bad, 'bad.gz');
  equal((await scanDone(page)).state, 'error', 'scan state');
});

await step(page, `a ${BIG_MB} MB file scanned in the worker with progress, the page responsive`, async () => {
  const big = path.join(scratch, 'big.ndjson');
  const line = (i) => JSON.stringify({ ClientCountry: ['fr', 'de', 'us', 'jp'][i % 4], BotScore: (i * 7) % 100, EdgeResponseStatus: [200, 404, 503][i % 3], ClientRequestPath: `/item/${i}`, ClientRequestUserAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', RayID: `${i.toString(16)}abcdef` });
  const ws = createWriteStream(big);
  let size = 0;
  for (let i = 0; size < BIG_MB * 1e6; i++) {
    const l = `${line(i)}\n`;
    size += l.length;
    if (!ws.write(l)) await once(ws, 'drain');
  }
  ws.end();
  await once(ws, 'finish');
  const cli = cliEval(FILTER, big, 0);
  await page.evaluate(() => {
    document.querySelector('#counts').removeAttribute('data-state');
    // the longest the main thread went without running a task while the worker scans
    window.__gap = 0;
    let last = performance.now();
    window.__ticker = setInterval(() => {
      const now = performance.now();
      window.__gap = Math.max(window.__gap, now - last);
      last = now;
    }, 10);
    // the progress bar shown, seen as it happens: a fast scan shows it for less than a test's polling interval
    window.__progressShown = false;
    const bar = document.querySelector('#progress');
    new MutationObserver(() => (window.__progressShown ||= !bar.hidden)).observe(bar, { attributes: true });
  });
  const t0 = Date.now();
  await page.setInputFiles('#file', big);
  await page.waitForFunction(() => window.__progressShown, null, { timeout: 60000 });
  // the page answers while the worker scans: typing in the explain box is explained
  await page.locator('#explain-input').fill('{"BotScore":1,"ClientCountry":"fr"}');
  await page.locator('#explain li').first().waitFor({ timeout: 60000 });
  const counts = await scanDone(page);
  const wall = (Date.now() - t0) / 1000;
  // from the moment the page had the file to the last count, as the page measured it
  const seconds = Number(counts.seconds);
  const gap = await page.evaluate(() => (clearInterval(window.__ticker), window.__gap));
  equal(counts.state, 'done', 'scan state');
  equal({ total: Number(counts.total), matched: Number(counts.matched) }, { total: cli.total, matched: cli.matched }, 'page vs logfilter eval');
  info[`${BIG_MB} MB scan`] = `page ${(size / 1e6 / seconds).toFixed(0)} MB/s (${seconds.toFixed(2)} s in the page, ${wall.toFixed(2)} s from choosing the file) (line kernel: ${counts.kernel}) vs cli --workers 0 ${(size / 1e6 / cli.seconds).toFixed(0)} MB/s: ${((cli.seconds / seconds) * 100).toFixed(0)}%; in the page, ms: ${counts.profile}; longest main-thread gap ${ms(gap)}`;
  rmSync(big);
  await shot(page, 'big-file');
});

await step(page, 'a share link opened in a fresh page reproduces the state', async () => {
  await page.evaluate((t) => window.logfilterPlayground.setSource(t), 'dataset firewall_events\n\nClientCountry != "fr" and ClientRequestHost == "a.example"\n');
  await page.locator('#logs').fill('{"ClientRequestHost":"a.example","ClientCountry":"de"}\n{"ClientRequestHost":"b.example","ClientCountry":"de"}\n');
  await page.locator('#logs').dispatchEvent('input');
  await page.waitForFunction(() => document.querySelector('#counts').dataset.total === '2', null, { timeout: 60000 });
  await page.locator('#share').click();
  await page.locator('#status').filter({ hasText: /./ }).waitFor();
  const url = page.url();
  check(/#v1\.[A-Za-z0-9_-]+$/.test(url), `the URL carries the state in its fragment: ${url}`);
  const fresh = await openPage(url);
  equal(await editorText(fresh), 'dataset firewall_events\n\nClientCountry != "fr" and ClientRequestHost == "a.example"\n', 'source');
  equal(await fresh.inputValue('#dataset'), 'firewall_events', 'dataset');
  equal(await fresh.inputValue('#logs'), '{"ClientRequestHost":"a.example","ClientCountry":"de"}\n{"ClientRequestHost":"b.example","ClientCountry":"de"}\n', 'logs');
  const counts = await scanDone(fresh);
  equal([counts.total, counts.matched], ['2', '1'], 'counts');
  await shot(fresh, 'shared-link');
  // a damaged link is said so, and the example is shown
  const broken = await openPage(`${URL_}#v1.AAAA`);
  check((await broken.locator('#status').innerText()).length > 0, 'a damaged link is reported');
  await broken.context().close();
  await fresh.context().close();
});

await step(page, 'keyboard only: reach the editor, complete, format, switch language, choose a file', async () => {
  const kb = await openPage();
  // listened for from the start: Playwright intercepts file choosers only once its listener is set up, which
  // happens in the background, and an Enter pressed before that opens no chooser it can see
  const chooser = kb.waitForEvent('filechooser', { timeout: 120000 });
  chooser.catch(() => {}); // awaited below; a failure before that must not go unhandled
  const active = () => kb.evaluate(() => document.activeElement?.id || document.activeElement?.className || document.activeElement?.tagName);
  let reached = false;
  for (let i = 0; i < 12 && !reached; i++) {
    await kb.keyboard.press('Tab');
    reached = String(await active()).includes('cm-content');
  }
  check(reached, 'Tab reaches the source editor');
  await kb.keyboard.press('Control+a');
  await kb.keyboard.press('Delete');
  await kb.keyboard.type('EdgeResponseStatus>=50', { delay: 30 });
  await kb.keyboard.press('Control+Space');
  await kb.keyboard.press('Escape');
  await kb.keyboard.press('Shift+Alt+f');
  equal(await editorText(kb), 'EdgeResponseStatus >= 50\n', 'formatted by its key');
  // Tab leaves the editor (it does not indent): focus moves on through the page
  await kb.keyboard.press('Tab');
  check(!String(await active()).includes('cm-content'), 'Tab leaves the editor');
  // the file chooser, from the drop zone by Enter
  await kb.locator('#logs').focus();
  let onDrop = false;
  for (let i = 0; i < 4 && !onDrop; i++) {
    await kb.keyboard.press('Tab');
    onDrop = (await active()) === 'drop';
  }
  check(onDrop, 'Tab reaches the drop zone');
  await kb.keyboard.press('Enter');
  await (await chooser).setFiles(path.join(scratch, 'logs.ndjson.gz'));
  const counts = await scanDone(kb);
  equal(counts.state, 'done', 'the chosen file was scanned');
  // tabs: arrow keys switch the language
  await kb.locator('#tab-filter').focus();
  await kb.keyboard.press('ArrowRight');
  check(await kb.locator('#rules-panel').isVisible(), 'ArrowRight shows the rules panel');
  equal(await active(), 'tab-rules', 'focus follows the tab');
  // on to the request form, and a request typed there is evaluated
  let onUrl = false;
  for (let i = 0; i < 12 && !onUrl; i++) {
    await kb.keyboard.press('Tab');
    onUrl = (await active()) === 'req-url';
  }
  check(onUrl, 'Tab reaches the request form');
  await kb.keyboard.press('Control+a');
  await kb.keyboard.type('https://shop.example/admin', { delay: 10 });
  await kb.keyboard.press('Tab');
  await kb.keyboard.press('Tab');
  equal(await active(), 'req-ip', 'Tab moves through the form');
  await kb.keyboard.press('Control+a');
  await kb.keyboard.type('192.0.2.5', { delay: 10 });
  await kb.locator('#rule-result[data-state=no-match]').waitFor({ timeout: 10000 });
  await shot(kb, 'keyboard-only');
  await kb.context().close();
});

await step(page, 'rules: highlighting, a diagnostic for the phase, completion, format', async () => {
  await page.locator('#tab-rules').click();
  const rule = page.locator('#rule-editor .cm-content');
  await rule.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type('http.ho', { delay: 40 });
  await page.locator('.cm-tooltip-autocomplete li', { hasText: 'http.host' }).first().waitFor({ timeout: 10000 });
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type('http.host == "a" && lower(http.request.uri.path) contains "/x"', { delay: 5 });
  await page.keyboard.press('Escape');
  check((await page.locator('#rule-editor .tok-function').allInnerTexts()).includes('lower'), 'a function is highlighted');
  await page.locator('#rule-format').click();
  await page.waitForFunction(() => window.logfilterPlayground.rule() === 'http.host eq "a" and lower(http.request.uri.path) contains "/x"');
  await page.selectOption('#phase', 'http_response_headers_transform');
  await shot(page, 'rules');
  await page.locator('#tab-filter').click();
});

function cliRulesEval(expression, request, phase) {
  const file = path.join(scratch, 'request.json');
  writeFileSync(file, request);
  const out = execFileSync(process.execPath, [BIN, 'rules', 'eval', expression, '--request', file, '--json', '--explain', '--phase', phase], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(out.split('\n')[0]);
}

await step(page, 'rules: a request tested against the rule, the same answer as logfilter rules eval', async () => {
  await page.locator('#tab-rules').click();
  await page.selectOption('#phase', 'http_request_firewall_custom');
  const expression = 'http.request.uri.path contains "/admin" and not ip.src in {192.0.2.0/24} and any(http.request.headers["user-agent"][*] contains "curl")';
  await page.evaluate((t) => window.logfilterPlayground.setRule(t), expression);
  // the form filled as a person does, field by field
  await page.locator('#req-url').fill('https://shop.example/admin/users?id=7');
  await page.locator('#req-method').fill('POST');
  await page.locator('#req-headers').fill('Accept: */*\nUser-Agent: curl/8.5');
  const answer = async () => ({
    state: await page.locator('#rule-result').getAttribute('data-state'),
    explain: await page.locator('#rule-explain li').evaluateAll((els, rule) => els.map((e) => { const [s, t] = e.dataset.range.split('-').map(Number); return { text: rule.slice(s, t), value: e.dataset.value }; }), expression),
  });
  for (const [ip, state] of [['198.51.100.7', 'match'], ['192.0.2.9', 'no-match']]) {
    await page.locator('#req-ip').fill(ip);
    await page.locator(`#rule-result[data-state=${state}]`).waitFor({ timeout: 10000 });
    const request = await page.inputValue('#request-json');
    equal(JSON.parse(request)['ip.src'], ip, 'the request the page shows');
    const cli = cliRulesEval(expression, request, 'http_request_firewall_custom');
    const got = await answer();
    equal(got.state === 'match', cli.matched, `matched for ${ip}`);
    equal(got.explain, cli.explain, `explain for ${ip}`);
    await shot(page, `rules-request-${state}`);
  }
  // bad input is answered on its input and line, and nothing is evaluated
  await page.locator('#req-headers').fill('Accept: */*\nno colon here');
  await page.locator('#rule-result[data-state=bad-request]').waitFor({ timeout: 10000 });
  equal(await page.locator('#request-problems li').evaluateAll((els) => els.map((e) => [e.dataset.input, e.dataset.line])), [['headers', '2']], 'the problem names the headers, line 2');
  equal(await page.locator('#req-headers').getAttribute('aria-invalid'), 'true', 'the input is marked invalid');
  check((await page.locator('#rule-explain li').count()) === 0, 'no explain for a request with problems');
  await page.locator('#req-headers').fill('User-Agent: curl/8.5');
  // a named list not given: placed on the list's name in the expression
  const listed = 'ip.src in $office';
  await page.evaluate((t) => window.logfilterPlayground.setRule(t), listed);
  await page.locator('#rule-result[data-state=problem]').waitFor({ timeout: 10000 });
  equal([await page.locator('#rule-result').getAttribute('data-code'), await page.locator('#rule-result').getAttribute('data-range')], ['rule-eval', `${listed.indexOf('$')}-${listed.length}`], 'the missing list');
  await page.locator('#req-lists').fill('{"office": ["198.51.100.0/24"]}');
  await page.locator('#rule-result[data-state=no-match]').waitFor({ timeout: 10000 });
  // the request travels in a share link
  await page.evaluate((t) => window.logfilterPlayground.setRule(t), expression);
  await page.locator('#req-ip').fill('198.51.100.7');
  // the link is written once the state is compressed (asynchronously): the status says when
  await page.evaluate(() => (document.querySelector('#status').textContent = ''));
  await page.locator('#share').click();
  await page.locator('#status').filter({ hasText: /./ }).waitFor();
  const fresh = await openPage(page.url());
  equal(await fresh.inputValue('#req-ip'), '198.51.100.7', 'the shared request');
  equal(await fresh.inputValue('#req-lists'), '{"office": ["198.51.100.0/24"]}', 'the shared lists');
  equal(await fresh.locator('#rule-result').getAttribute('data-state'), 'match', 'the shared page evaluates it');
  check(await fresh.locator('#rules-panel').isVisible(), 'the shared page opens on the rules tab');
  await fresh.context().close();
  await page.locator('#tab-filter').click();
});

await step(page, 'the page agrees with the conformance fixtures (compile, diagnostics, format)', async () => {
  const all = readConformance(path.join(REPO, 'test/conformance/fixtures'));
  // every option a fixture sets is one of the page's controls (dataset, Optimize, Max operators, Max bytes)
  const known = ['dataset', 'optimize', 'maxOperators', 'maxBytes'];
  const runnable = all.filter((c) => Object.keys(c.options).every((k) => known.includes(k)));
  const failures = [];
  await page.locator('#tab-filter').click();
  for (const c of runnable) {
    await page.selectOption('#dataset', c.options.dataset ?? 'http_requests');
    const out = await page.evaluate(
      ({ source, fmt, options }) => {
        // set as a person sets them: the controls' values, then their own events
        const optimize = document.querySelector('#optimize');
        if (optimize.checked !== (options.optimize === true)) optimize.click();
        for (const [id, key, value] of [['max-operators', 'maxOperators', 30], ['max-bytes', 'maxBytes', 1000]]) {
          const input = document.querySelector(`#${id}`);
          input.value = String(options[key] ?? value);
          input.dispatchEvent(new Event('input'));
        }
        window.logfilterPlayground.setSource(source);
        const escaped = document.querySelector('#escaped').value;
        const problems = [...document.querySelectorAll('#problems li')].map((li) => ({ code: li.dataset.code, range: li.dataset.range }));
        let formatted;
        if (fmt) {
          window.logfilterPlayground.format();
          formatted = window.logfilterPlayground.source();
        }
        return { escaped, problems, formatted };
      },
      { source: c.source, fmt: c.format !== undefined, options: c.options },
    );
    const ranges = out.problems.map((p) => {
      const [s, e] = p.range.split('-').map(Number);
      return describeRange(c.source, p.code, s, e);
    });
    const want = [];
    if (c.format !== undefined) want.push(['format', out.formatted, c.format]);
    else {
      // the job-body string holds the exact compact JSON (digits beyond 2^53 included)
      if (c.json !== undefined) want.push(['json', out.escaped ? JSON.parse(out.escaped) : '', c.json]);
      want.push(['diagnostics', ranges.sort().join('; '), [...(c.diagnostics ?? [])].sort().join('; ')]);
    }
    for (const [what, got, expected] of want) if (got !== expected) failures.push(`${c.file} "${c.name}" ${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`);
  }
  // the page's controls back to the API's defaults for the cases after this one
  await page.evaluate(() => {
    if (document.querySelector('#optimize').checked) document.querySelector('#optimize').click();
    for (const [id, value] of [['max-operators', 30], ['max-bytes', 1000]]) {
      const input = document.querySelector(`#${id}`);
      input.value = String(value);
      input.dispatchEvent(new Event('input'));
    }
  });
  info['conformance fixtures through the page'] = `${runnable.length - failures.length}/${all.length}`;
  check(runnable.length === all.length, `fixtures with options the page has no control for: ${all.filter((c) => !runnable.includes(c)).map((c) => c.name).join(', ')}`);
  check(failures.length === 0, failures.slice(0, 3).join(' | '));
});

await step(page, 'compile options: optimize, limits, a bad limit refused, the budget in view when scrolled', async () => {
  await page.selectOption('#dataset', 'http_requests');
  await page.evaluate((t) => window.logfilterPlayground.setSource(t), 'ClientCountry == "fr" or ClientCountry == "de" or BotScore < 3\n');
  await page.locator('#optimize').check();
  await page.waitForFunction(() => document.querySelector('#json').value.includes('"in"'));
  equal(JSON.parse(await page.inputValue('#json')).where.or[0], { key: 'ClientCountry', operator: 'in', value: ['fr', 'de'] }, 'optimized');
  check(/^2 \/ 30 operators \(3 /.test(await page.locator('#budget').innerText()), 'the budget shows the count before optimizing');
  const maxOps = page.locator('#max-operators');
  await maxOps.fill('1');
  await page.locator('#problems li[data-code=too-many-operators]').waitFor({ timeout: 10000 });
  // not a limit: said so on the input, the last good one stays in force
  await maxOps.fill('0');
  equal(await maxOps.getAttribute('aria-invalid'), 'true', 'a limit of 0 is refused');
  check((await page.locator('#status').innerText()).length > 0, 'and said so');
  check(/^2 \/ 1 operators/.test(await page.locator('#budget').innerText()), 'the last good limit stays');
  await maxOps.fill('30');
  await page.locator('#optimize').uncheck();
  await page.waitForFunction(() => document.querySelectorAll('#problems li').length === 0);
  // the budget stays in view when the page is scrolled to the logs (a short window, so that it scrolls)
  await page.setViewportSize({ width: 1300, height: 500 });
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const scrolled = await page.evaluate(() => window.scrollY);
  const box = await page.locator('#budget').boundingBox();
  check(scrolled > 200 && box && box.y >= 0 && box.y + box.height <= 500, `the budget is in view scrolled by ${scrolled} px (${JSON.stringify(box)})`);
  await page.screenshot({ path: path.join(ARTIFACTS, 'budget-scrolled.png') });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize({ width: 1300, height: 1000 });
});

await step(page, 'accessibility: axe-core finds no serious or critical violation', async () => {
  const axe = readFileSync(path.join(REPO, 'node_modules/axe-core/axe.min.js'), 'utf8');
  const found = [];
  for (const tab of ['filter', 'rules']) {
    await page.locator(`#tab-${tab}`).click();
    await page.evaluate(axe);
    const result = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }));
    for (const v of result.violations) found.push({ tab, id: v.id, impact: v.impact, nodes: v.nodes.length, target: v.nodes[0]?.target });
  }
  await page.locator('#tab-filter').click();
  writeFileSync(path.join(ARTIFACTS, 'axe.json'), JSON.stringify(found, null, 2));
  const serious = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  info['axe violations'] = found.length ? found.map((v) => `${v.tab}:${v.id}(${v.impact})`).join(' ') : 'none';
  check(serious.length === 0, `serious: ${JSON.stringify(serious)}`);
});

await step(page, 'opened from disk (file://): compiles and scans', async () => {
  const disk = await openPage(pathToFileURL(path.join(SITE, 'index.html')).href);
  check((await disk.inputValue('#json')).includes('"where"'), 'the example compiles');
  await disk.locator('#logs').fill('{"BotScore":1}\n{"BotScore":90}\n');
  await disk.locator('#logs').dispatchEvent('input');
  const counts = await scanDone(disk);
  equal([counts.state, counts.total, counts.matched], ['done', '2', '1'], 'counts from the worker');
  await disk.context().close();
});

await step(page, 'completion and diagnostics latency while typing (figures)', async () => {
  const lat = await openPage();
  await lat.locator('#source-editor .cm-content').click();
  await lat.keyboard.press('Control+a');
  await lat.keyboard.press('Delete');
  await lat.evaluate(() => {
    window.logfilterPlayground.timings.complete.length = 0;
    window.logfilterPlayground.timings.diagnostics.length = 0;
    window.logfilterPlayground.timings.compile.length = 0;
  });
  // as the user sees it: from a key going down to the completion list being redrawn
  await lat.evaluate(() => {
    window.__visible = [];
    let down;
    document.addEventListener('keydown', () => (down = performance.now()), true);
    new MutationObserver(() => {
      if (down !== undefined && document.querySelector('.cm-tooltip-autocomplete')) {
        window.__visible.push(performance.now() - down);
        down = undefined;
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  const text = 'ClientCountry in ["fr", "de"] and BotScore < 30 or EdgeResponseStatus >= 500 and ClientRequestPath contains "/api"';
  await lat.keyboard.type(text, { delay: 40 });
  const visible = await lat.evaluate(() => window.__visible);
  info['completion p95 (key down → list redrawn)'] = `${ms(percentile(visible, 95))} over ${visible.length}`;
  await lat.keyboard.press('Escape');
  await lat.waitForTimeout(300);
  const t = await lat.evaluate(() => window.logfilterPlayground.timings);
  // lint runs when typing pauses (100 ms), the problems list and the JSON at every keystroke
  check(t.complete.length > 20 && t.compile.length >= text.length && t.diagnostics.length >= 1, `the core was asked while typing (${t.complete.length} completions, ${t.compile.length} compilations, ${t.diagnostics.length} lint runs)`);
  info['completion p95 (core, in page)'] = `${ms(percentile(t.complete, 95))} over ${t.complete.length}`;
  info['diagnostics p95 (core, in page)'] = `${ms(percentile(t.diagnostics, 95))} over ${t.diagnostics.length} lint runs, compile+problems ${ms(percentile(t.compile, 95))} over ${t.compile.length} keystrokes`;
  await lat.context().close();
});

await step(page, 'no errors in the console, no CSP violation, no request outside the page', async () => {
  check(errors.length === 0, errors.slice(0, 5).join(' | '));
});

await browser.close();
server.kill('SIGINT');
const [code] = await once(server, 'exit');
cases.push({ name: 'logfilter playground stops on Ctrl-C with exit 0', ok: code === 0, ms: 0, error: `exit ${code}` });
rmSync(scratch, { recursive: true, force: true });
rmSync(udd, { recursive: true, force: true });

const result = path.join(ARTIFACTS, 'playground.json');
writeFileSync(result, JSON.stringify({ cases, info }, null, 2));
const summary = spawn(process.execPath, [path.join(REPO, 'test/e2e/summarize.mjs'), result], { stdio: 'inherit' });
const [status] = await once(summary, 'exit');
console.log(`screenshots in ${ARTIFACTS}`);
process.exit(status);
