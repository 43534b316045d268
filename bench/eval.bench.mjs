#!/usr/bin/env node
/**
 * Evaluator bench: MB/s of splitting lines only, of splitting plus JSON.parse of every line (the
 * baseline), and of the built `logfilter eval` on three filters, on 200 MB of generated http_requests NDJSON.
 * Every figure is measured in the same run, each in its own process (wall time, peak RSS from /proc), and the
 * eval figures are given as ratios to the baseline. Goals: >= 3.0x (eq), 3.0x (and of 4), 2.5x (nested),
 * never below 1.0x; peak RSS under 200 MB.
 *
 *   npm run build && node bench/eval.bench.mjs [--mb 200] [--runs 2]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generate } from './gen-http-requests.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const MB = Number(arg('mb', '200'));
const RUNS = Number(arg('runs', '2'));
const SEED = 42;
const bin = path.join(root, 'packages/cli/bin/logfilter.cjs');
if (!fs.existsSync(path.join(root, 'packages/cli/dist/logfilter.cjs'))) {
  console.error('eval bench: build first (npm run build)');
  process.exit(2);
}

const dataDir = path.join(here, '.data');
const data = path.join(dataDir, `http_requests-${MB}mb-seed${SEED}.ndjson`);
if (!fs.existsSync(data)) {
  const t = performance.now();
  const r = generate(data, MB, SEED);
  console.error(`generated ${data}: ${r.lines} lines in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
const size = fs.statSync(data).size;

const FILTERS = {
  'eq host': { where: { key: 'ClientRequestHost', operator: 'eq', value: 'api.example.com' } },
  'and of 4': {
    where: {
      and: [
        { key: 'ClientRequestHost', operator: 'eq', value: 'www.example.com' },
        { key: 'EdgeResponseStatus', operator: 'geq', value: 400 },
        { key: 'ClientCountry', operator: 'in', value: ['us', 'gb', 'de', 'fr'] },
        { key: 'ClientRequestPath', operator: '!startsWith', value: '/static/' },
      ],
    },
  },
  'nested 12': {
    where: {
      and: [
        { key: 'ClientRequestHost', operator: 'in', value: ['www.example.com', 'shop.example.com', 'api.example.com'] },
        {
          or: [
            { key: 'EdgeResponseStatus', operator: 'geq', value: 500 },
            { and: [{ key: 'EdgeResponseStatus', operator: 'eq', value: 403 }, { key: 'SecurityAction', operator: 'eq', value: 'block' }] },
          ],
        },
        {
          or: [
            { key: 'BotTags', operator: 'contains', value: 'google' },
            { key: 'BotScore', operator: 'lt', value: 30 },
            { key: 'ClientRequestUserAgent', operator: 'contains', value: 'Mozilla' },
          ],
        },
        { key: 'ClientCountry', operator: '!in', value: ['cn', 'ru'] },
        { key: 'ClientRequestPath', operator: '!endsWith', value: '.png' },
        { key: 'ClientRequestMethod', operator: 'in', value: ['GET', 'POST'] },
        { key: 'CacheCacheStatus', operator: '!eq', value: 'hit' },
        { key: 'ClientDeviceType', operator: '!eq', value: 'tablet' },
      ],
    },
  },
};

// Baselines read the file the usual way: a read stream, a UTF-8 string decoder, split on \n.
const BASELINE = `
import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
const parse = process.argv[2] === 'parse';
const dec = new StringDecoder('utf8');
let carry = '', n = 0;
for await (const chunk of fs.createReadStream(process.argv[1], { highWaterMark: 1 << 20 })) {
  const lines = (carry + dec.write(chunk)).split('\\n');
  carry = lines.pop();
  for (const l of lines) if (l) { n++; if (parse) JSON.parse(l); }
}
if (carry) { n++; if (parse) JSON.parse(carry); }
process.stdout.write(JSON.stringify({ total: n }));
`;

/** Runs a command, returns wall seconds, peak RSS (MB, from VmHWM) and stdout. */
function measure(cmd, args) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let peak = 0;
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]) / 1024);
      } catch {
        // exited between polls
      }
    }, 20);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      if (code !== 0) reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`));
      else resolve({ seconds: (performance.now() - t) / 1000, peak, out });
    });
  });
}

const filterFiles = {};
fs.mkdirSync(dataDir, { recursive: true });
for (const [name, f] of Object.entries(FILTERS)) {
  filterFiles[name] = path.join(dataDir, `filter-${name.replace(/\W+/g, '-')}.json`);
  fs.writeFileSync(filterFiles[name], JSON.stringify(f));
}

const tasks = [
  ['split lines', () => measure(process.execPath, ['--input-type=module', '-e', BASELINE, data, 'split'])],
  ['split + JSON.parse (baseline)', () => measure(process.execPath, ['--input-type=module', '-e', BASELINE, data, 'parse'])],
  ...Object.keys(FILTERS).map((name) => [`eval: ${name}`, () => measure(process.execPath, [bin, 'eval', filterFiles[name], data, '--json', '--no-progress'])]),
];

// Best of RUNS, interleaved so that a slow moment of the machine hits every task alike.
const best = new Map();
for (let r = 0; r < RUNS; r++) {
  for (const [name, run] of tasks) {
    const m = await run();
    const prev = best.get(name);
    if (!prev || m.seconds < prev.seconds) best.set(name, { ...m, peak: Math.max(m.peak, prev?.peak ?? 0) });
    else prev.peak = Math.max(prev.peak, m.peak);
  }
}

const baseline = best.get('split + JSON.parse (baseline)');
const mbps = (s) => size / 1048576 / s;
const GOALS = { 'eval: eq host': 3.0, 'eval: and of 4': 3.0, 'eval: nested 12': 2.5 };
console.log(`eval bench: ${(size / 1048576).toFixed(0)} MB of http_requests NDJSON, ${os.availableParallelism?.() ?? os.cpus().length} cores, best of ${RUNS}`);
let ok = true;
for (const [name] of tasks) {
  const m = best.get(name);
  const ratio = baseline.seconds / m.seconds;
  let extra = '';
  if (name.startsWith('eval:')) {
    const j = JSON.parse(m.out);
    const goal = GOALS[name];
    const pass = ratio >= goal && m.peak < 200;
    ok &&= ratio >= 1.0;
    extra = `  ${ratio.toFixed(2)}x baseline (goal ${goal}x) matched ${j.matched}/${j.total}  ${pass ? 'ok' : 'BELOW GOAL'}`;
  }
  console.log(`${name.padEnd(32)} ${mbps(m.seconds).toFixed(1).padStart(8)} MB/s  ${m.seconds.toFixed(2).padStart(7)} s  peak ${m.peak.toFixed(0).padStart(4)} MB${extra}`);
}
if (!ok) process.exitCode = 1;
