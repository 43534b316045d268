/**
 * What the evaluator benches share: the generated workloads (one plain NDJSON file of http_requests lines, and
 * the same lines as a tree of gzip files shaped like log export output), the three filters F1–F3, and the
 * measurement of one command as a whole process (wall time, peak RSS). The eval bench and the SQL-engine bench
 * run on the same data and filters, so their figures can be read side by side.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generate } from './gen-http-requests.mjs';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '..');
export const dataDir = path.join(here, '.data');
/** The launcher users run (bin/logfilter.cjs → the eval bundle through V8's code cache). */
export const bin = path.join(root, 'packages/cli/bin/logfilter.cjs');

/** `--name value` from the command line, or the default. */
export const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};

/** Exits with a clear message when the bundles are missing. */
export function requireBuild(bench) {
  if (!fs.existsSync(path.join(root, 'packages/cli/dist/logfilter.cjs'))) {
    console.error(`${bench}: build first (npm run build)`);
    process.exit(2);
  }
}

/** The plain workload: MB of generated lines (seeded), generated once and kept in bench/.data. */
export function plainData(mb, seed) {
  fs.mkdirSync(dataDir, { recursive: true });
  const data = path.join(dataDir, `http_requests-v2-${mb}mb-seed${seed}.ndjson`);
  if (!fs.existsSync(data)) {
    const t = performance.now();
    const r = generate(data, mb, seed);
    console.error(`generated ${data}: ${r.lines} lines in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  return data;
}

/** The same lines cut into `files` gzip files under two day directories, named as log export names them. */
export function gzipTree(data, mb, files) {
  const dir = path.join(dataDir, `logs-v2-${mb}mb-${files}files`);
  const done = path.join(dir, '.complete');
  if (fs.existsSync(done)) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  const text = fs.readFileSync(data);
  const per = Math.ceil(text.length / files);
  let from = 0;
  const t0 = Date.UTC(2025, 4, 6, 12, 0, 0);
  for (let i = 0; i < files; i++) {
    let to = Math.min(text.length, from + per);
    const nl = text.indexOf(10, to - 1);
    to = i === files - 1 || nl < 0 ? text.length : nl + 1;
    const start = new Date(t0 + i * 5 * 60_000);
    const end = new Date(start.getTime() + 5 * 60_000);
    const stamp = (d) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    const day = stamp(start).slice(0, 8);
    const hash = (i * 2654435761 >>> 0).toString(16).padStart(8, '0');
    fs.mkdirSync(path.join(dir, day), { recursive: true });
    fs.writeFileSync(path.join(dir, day, `${stamp(start)}_${stamp(end)}_${hash}.log.gz`), zlib.gzipSync(text.subarray(from, to), { level: 6 }));
    from = to;
  }
  fs.writeFileSync(done, '');
  return dir;
}

export function listGz(dir) {
  const out = [];
  for (const day of fs.readdirSync(dir).sort()) {
    const d = path.join(dir, day);
    if (!fs.statSync(d).isDirectory()) continue;
    for (const f of fs.readdirSync(d).sort()) if (f.endsWith('.log.gz')) out.push(path.join(d, f));
  }
  return out;
}

export const FILTERS = {
  'F1 eq host': { where: { key: 'ClientRequestHost', operator: 'eq', value: 'api.example.com' } },
  'F2 and of 4': {
    where: {
      and: [
        { key: 'ClientRequestHost', operator: 'eq', value: 'www.example.com' },
        { key: 'EdgeResponseStatus', operator: 'geq', value: 400 },
        { key: 'ClientCountry', operator: 'in', value: ['us', 'gb', 'de', 'fr'] },
        { key: 'ClientRequestPath', operator: '!startsWith', value: '/static/' },
      ],
    },
  },
  // 12 conditions: or of endsWith/in, in, or of >=/contains/and, not endsWith, not contains, not in, <=, !=.
  'F3 nested 12': {
    where: {
      and: [
        { or: [{ key: 'ClientRequestPath', operator: 'endsWith', value: '.php' }, { key: 'ClientCountry', operator: 'in', value: ['us', 'ca', 'gb', 'de', 'fr', 'in'] }] },
        { key: 'ClientRequestMethod', operator: 'in', value: ['GET', 'POST'] },
        {
          or: [
            { key: 'EdgeResponseStatus', operator: 'geq', value: 400 },
            { key: 'ClientRequestUserAgent', operator: 'contains', value: 'bot' },
            { and: [{ key: 'CacheCacheStatus', operator: 'eq', value: 'miss' }, { key: 'EdgeResponseContentType', operator: 'eq', value: 'application/json' }] },
          ],
        },
        { key: 'ClientRequestPath', operator: '!endsWith', value: '.png' },
        { key: 'ClientRequestUserAgent', operator: '!contains', value: 'curl' },
        { key: 'CacheCacheStatus', operator: '!in', value: ['hit', 'stale'] },
        { key: 'BotScore', operator: 'leq', value: 95 },
        { key: 'ClientDeviceType', operator: '!eq', value: 'tablet' },
      ],
    },
  },
};

/** Each filter written once as a JSON file (what `logfilter eval` and the DuckDB peer read). */
export function writeFilterFiles() {
  fs.mkdirSync(dataDir, { recursive: true });
  const files = {};
  for (const [name, f] of Object.entries(FILTERS)) {
    files[name] = path.join(dataDir, `filter-${name.replace(/\W+/g, '-')}.json`);
    fs.writeFileSync(files[name], JSON.stringify(f));
  }
  return files;
}

export /** Runs a command; returns wall seconds, peak RSS (MB, VmHWM of the process) and stdout. */
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
    }, 10);
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

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
