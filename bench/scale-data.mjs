/**
 * The scale bench's workloads: N MB of http_requests lines laid out as log export writes them
 * (`<YYYYMMDD>/<start>_<end>_<hash>.log.gz`), in a plain variant (the same names without `.gz`, uncompressed)
 * and a gzip variant (level 6, what exporters write), generated once and cached outside the repository.
 *
 * File size: FILE_MB (32 MB) of lines a file, about 14,000 records, which is 30 s (log export's default
 * upload interval) of a zone serving ~470 requests a second: well inside the job's limits (5 MB–1 GB
 * uncompressed, 100,000 records a file) and the size a busy zone's exports have. The last file of a workload
 * holds the remainder, so 20 MB is one file, 200 MB seven, 2 GB 64 and 10 GB 320.
 *
 * Every file has its own seed (seed × 1,000,003 + its index) and its own line numbers (index × 1,000,000 on),
 * so lines vary across the whole workload and files can be written in parallel: `jobs` child processes, each
 * generating a file and then piping it through `gzip -6` (zlib level 6 in process where gzip is missing).
 *
 * Cache: `$LOGFILTER_BENCH_CACHE`, default `~/.cache/logfilter-bench`; a workload's directory gets its
 * `.complete` marker (a JSON summary) last, and a directory without one is removed and written again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn, spawnSync } from 'node:child_process';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const FILE_MB = 32;
/** Seconds of traffic a file covers (log export's default upload interval). */
export const FILE_SECONDS = 30;
/** The first file starts a minute before midnight, so every workload of more than two files spans two days. */
const T0 = Date.UTC(2025, 4, 6, 23, 59, 0);
const MARKER = '.complete';

/** Where workloads are cached: $LOGFILTER_BENCH_CACHE, else ~/.cache/logfilter-bench. */
export function cacheDir(env = process.env) {
  return env.LOGFILTER_BENCH_CACHE ? path.resolve(env.LOGFILTER_BENCH_CACHE) : path.join(os.homedir(), '.cache', 'logfilter-bench');
}

/** `20250506T235900Z`: log export's timestamp spelling in file names. */
const stamp = (ms) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

/** The relative path of file `i` of a workload: `<YYYYMMDD>/<start>_<end>_<hash>.log` (+ `.gz`). */
export function exportName(i, gzip) {
  const start = T0 + i * FILE_SECONDS * 1000;
  const end = start + FILE_SECONDS * 1000;
  const hash = ((i + 1) * 2654435761 >>> 0).toString(16).padStart(8, '0');
  return path.join(stamp(start).slice(0, 8), `${stamp(start)}_${stamp(end)}_${hash}.log${gzip ? '.gz' : ''}`);
}

/** The sizes (bytes) of the files of an `mb` workload: FILE_MB each, the last one the rest. */
export function fileSizes(mb, fileMb = FILE_MB) {
  const total = mb * 1048576;
  const per = fileMb * 1048576;
  const sizes = [];
  for (let left = total; left > 0; left -= per) sizes.push(Math.min(per, left));
  return sizes;
}

/** The workload's directory (its plain/ and gzip/ trees side by side). */
export function workloadDir(mb, { seed = 42, fileMb = FILE_MB, cache = cacheDir() } = {}) {
  return path.join(cache, `http_requests-v1-seed${seed}-${mb}mb-${fileMb}mbfiles`);
}

/** The marker's summary when the workload is complete, else undefined (a half-written set counts as absent). */
export function readMarker(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every file of a variant's tree (`plain` or `gzip`), sorted by path as `logfilter eval DIR` reads them. */
export function listTree(dir) {
  const out = [];
  for (const day of fs.readdirSync(dir).sort()) {
    const d = path.join(dir, day);
    if (!fs.statSync(d).isDirectory()) continue;
    for (const f of fs.readdirSync(d).sort()) if (!f.startsWith('.')) out.push(path.join(d, f));
  }
  return out;
}

const hasGzip = () => spawnSync('gzip', ['--version'], { stdio: 'ignore' }).status === 0;

function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', opts.stdout ?? 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`))));
  });
}

async function gzipFile(src, dst, useGzip) {
  const tmp = dst + '.tmp';
  if (useGzip) {
    const out = fs.openSync(tmp, 'w');
    try {
      await run('gzip', ['-6', '-c', src], { stdout: out });
    } finally {
      fs.closeSync(out);
    }
  } else {
    await pipeline(fs.createReadStream(src), zlib.createGzip({ level: 6 }), fs.createWriteStream(tmp));
  }
  fs.renameSync(tmp, dst);
}

/**
 * The workload of `mb` MB (generated when absent or incomplete): `{ dir, plain, gzip, files, bytes,
 * gzipBytes, lines }`, `plain` and `gzip` the two trees to give `logfilter eval`.
 */
export async function ensureWorkload(mb, { seed = 42, fileMb = FILE_MB, cache = cacheDir(), jobs = 2, log = console.error } = {}) {
  const dir = workloadDir(mb, { seed, fileMb, cache });
  const done = readMarker(dir);
  if (done) return { ...done, dir, plain: path.join(dir, 'plain'), gzip: path.join(dir, 'gzip') };
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const sizes = fileSizes(mb, fileMb);
  const useGzip = hasGzip();
  const t = performance.now();
  log(`scale bench: generating ${mb} MB (${sizes.length} files, ${jobs} at a time) in ${dir}`);
  let next = 0;
  let finished = 0;
  const worker = async () => {
    while (next < sizes.length) {
      const i = next++;
      const plain = path.join(dir, 'plain', exportName(i, false));
      const gz = path.join(dir, 'gzip', exportName(i, true));
      fs.mkdirSync(path.dirname(plain), { recursive: true });
      fs.mkdirSync(path.dirname(gz), { recursive: true });
      // A child process per file: generation is CPU-bound JavaScript, so files are written on every core.
      await run(process.execPath, [path.join(here, 'gen-http-requests.mjs'), '--bytes', String(sizes[i]), '--seed', String(seed * 1000003 + i), '--first', String(i * 1000000), '--out', plain]);
      await gzipFile(plain, gz, useGzip);
      if (++finished % 16 === 0) log(`  ${finished}/${sizes.length} files, ${((performance.now() - t) / 1000).toFixed(0)} s`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  const plainFiles = listTree(path.join(dir, 'plain'));
  let bytes = 0;
  let lines = 0;
  for (const f of plainFiles) {
    bytes += fs.statSync(f).size;
    lines += countLines(f);
  }
  const gzipBytes = listTree(path.join(dir, 'gzip')).reduce((s, f) => s + fs.statSync(f).size, 0);
  const summary = { mb, seed, fileMb, files: plainFiles.length, bytes, gzipBytes, lines, seconds: Math.round((performance.now() - t) / 1000) };
  fs.writeFileSync(path.join(dir, MARKER), JSON.stringify(summary) + '\n');
  log(`scale bench: ${mb} MB written in ${summary.seconds} s (${(gzipBytes / 1048576).toFixed(0)} MB as gzip)`);
  return { ...summary, dir, plain: path.join(dir, 'plain'), gzip: path.join(dir, 'gzip') };
}

function countLines(file) {
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.allocUnsafe(1 << 20);
  let n = 0;
  let got;
  while ((got = fs.readSync(fd, buf, 0, buf.length)) > 0) {
    for (let i = buf.indexOf(10); i >= 0 && i < got; i = buf.indexOf(10, i + 1)) n++;
  }
  fs.closeSync(fd);
  return n;
}

// `node bench/scale-data.mjs --sizes 20,200,2048,10240 [--jobs 2]`: write the workloads ahead of a bench run.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : dflt;
  };
  for (const mb of arg('sizes', '20,200').split(',').map(Number)) {
    const w = await ensureWorkload(mb, { jobs: Number(arg('jobs', '2')), seed: Number(arg('seed', '42')) });
    console.log(`${w.dir}: ${w.files} files, ${w.lines} lines, ${(w.bytes / 1048576).toFixed(0)} MB plain, ${(w.gzipBytes / 1048576).toFixed(0)} MB gzip`);
  }
}
