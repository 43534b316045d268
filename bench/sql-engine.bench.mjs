#!/usr/bin/env node
/**
 * `logfilter eval --engine duckdb` against the built-in evaluator (the baseline), whole process, on the two
 * workloads of the evaluator bench: one plain NDJSON file of generated http_requests lines (200 MB by
 * default), and the same lines as a directory of gzip files shaped like log export output
 * (`<YYYYMMDD>/<start>_<end>_<hash>.log.gz`, 20 files). Three filters (one condition, an `and` of four, a
 * nested dozen with negations). Medians of RUNS interleaved rounds; ratio = built-in time / duckdb time
 * (above 1: DuckDB faster). Counts must be equal, or the bench fails.
 *
 *   npm run build && node bench/sql-engine.bench.mjs [--mb 200] [--runs 3]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
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
const RUNS = Number(arg('runs', '3'));
const SEED = 42;
const FILES = 20;
const bin = path.join(root, 'packages/cli/bin/logfilter.cjs');
if (!fs.existsSync(path.join(root, 'packages/cli/dist/logfilter.cjs'))) {
  console.error('sql-engine bench: build first (npm run build)');
  process.exit(2);
}

const dataDir = path.join(here, '.data');
fs.mkdirSync(dataDir, { recursive: true });
const plain = path.join(dataDir, `http_requests-${MB}mb-seed${SEED}.ndjson`);
if (!fs.existsSync(plain)) generate(plain, MB, SEED);

/** The plain file cut into FILES gzip files at line boundaries, named as log export names them. */
const gzDir = path.join(dataDir, `http_requests-${MB}mb-seed${SEED}-gz`);
if (!fs.existsSync(path.join(gzDir, '.done'))) {
  fs.rmSync(gzDir, { recursive: true, force: true });
  const day = path.join(gzDir, '20240115');
  fs.mkdirSync(day, { recursive: true });
  const text = fs.readFileSync(plain);
  const step = Math.ceil(text.length / FILES);
  let start = 0;
  for (let i = 0; i < FILES && start < text.length; i++) {
    let end = Math.min(text.length, start + step);
    while (end < text.length && text[end - 1] !== 0x0a) end++;
    const t0 = `20240115T${String(i).padStart(2, '0')}0000Z`;
    const t1 = `20240115T${String(i).padStart(2, '0')}5959Z`;
    const hash = crypto.createHash('sha1').update(String(i)).digest('hex').slice(0, 8);
    fs.writeFileSync(path.join(day, `${t0}_${t1}_${hash}.log.gz`), zlib.gzipSync(text.subarray(start, end), { level: 6 }));
    start = end;
  }
  fs.writeFileSync(path.join(gzDir, '.done'), '');
}

const FILTERS = {
  'eq host': 'ClientRequestHost == "api.example.com"',
  'and of 4': 'ClientRequestHost == "www.example.com" and EdgeResponseStatus >= 400 and ClientCountry in ["us", "gb", "de", "fr"] and ClientRequestPath not startsWith "/static/"',
  'nested 12':
    'ClientRequestHost in ["www.example.com", "shop.example.com", "api.example.com"] and (EdgeResponseStatus >= 500 or (EdgeResponseStatus == 403 and SecurityAction == "block")) and (BotTags contains "google" or BotScore < 30 or ClientRequestUserAgent contains "Mozilla") and ClientCountry not in ["cn", "ru"] and ClientRequestPath not endsWith ".png" and ClientRequestMethod in ["GET", "POST"] and CacheCacheStatus != "hit" and ClientDeviceType != "tablet"',
};
const filterFiles = Object.fromEntries(
  Object.entries(FILTERS).map(([name, src]) => {
    const f = path.join(dataDir, `sql-filter-${name.replace(/\W+/g, '-')}.logfilter`);
    fs.writeFileSync(f, `dataset http_requests\n${src}\n`);
    return [name, f];
  }),
);

/** Wall seconds, peak RSS (MB, VmHWM) and stdout of one command. */
function measure(args) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
      if (code !== 0) reject(new Error(`logfilter ${args.slice(1).join(' ')} exited ${code}: ${err}`));
      else resolve({ seconds: (performance.now() - t) / 1000, peak, out: JSON.parse(out) });
    });
  });
}

// Both engines get the same inputs: the file, or the gzip files one by one (as a shell glob expands them).
const gzFiles = fs.readdirSync(path.join(gzDir, '20240115')).sort().map((f) => path.join(gzDir, '20240115', f));
const workloads = { plain: [plain], gzip: gzFiles };
const tasks = [];
for (const [w, inputs] of Object.entries(workloads)) {
  for (const name of Object.keys(FILTERS)) {
    tasks.push({ w, name, engine: 'builtin', args: [bin, 'eval', filterFiles[name], ...inputs, '--json', '--no-progress'] });
    tasks.push({ w, name, engine: 'duckdb', args: [bin, 'eval', filterFiles[name], ...inputs, '--json', '--engine', 'duckdb'] });
  }
}

// Interleaved rounds: a slow moment of the shared machine hits every command alike; medians per command.
const times = new Map();
for (let r = 0; r < RUNS; r++) {
  for (const t of tasks) {
    const key = `${t.w}|${t.name}|${t.engine}`;
    const m = await measure(t.args);
    const prev = times.get(key) ?? { seconds: [], peak: 0, out: m.out };
    prev.seconds.push(m.seconds);
    prev.peak = Math.max(prev.peak, m.peak);
    times.set(key, prev);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`sql-engine bench: ${(fs.statSync(plain).size / 1048576).toFixed(0)} MB of http_requests NDJSON (plain; and ${FILES} gzip files), ${os.availableParallelism?.() ?? os.cpus().length} cores, median of ${RUNS}, whole process`);
console.log(`${'workload'.padEnd(9)} ${'filter'.padEnd(10)} ${'built-in'.padStart(9)} ${'duckdb'.padStart(9)} ${'built-in/duckdb'.padStart(16)}  peak RSS built-in / duckdb   matched/total`);
let ok = true;
for (const w of Object.keys(workloads)) {
  for (const name of Object.keys(FILTERS)) {
    const b = times.get(`${w}|${name}|builtin`);
    const d = times.get(`${w}|${name}|duckdb`);
    const same = b.out.total === d.out.total && b.out.matched === d.out.matched;
    ok &&= same;
    console.log(
      `${w.padEnd(9)} ${name.padEnd(10)} ${median(b.seconds).toFixed(2).padStart(8)}s ${median(d.seconds).toFixed(2).padStart(8)}s ${(median(b.seconds) / median(d.seconds)).toFixed(2).padStart(15)}x  ${b.peak.toFixed(0).padStart(5)} / ${d.peak.toFixed(0).padStart(5)} MB   ${d.out.matched}/${d.out.total}${same ? '' : `  COUNTS DIFFER (built-in ${b.out.matched}/${b.out.total})`}`,
    );
  }
}
if (!ok) process.exitCode = 1;
