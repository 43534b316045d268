#!/usr/bin/env node
/**
 * Evaluator bench: whole-process times of `logfilter eval` beside its peer and a baseline, on two
 * workloads of generated http_requests NDJSON (realistic variety: several hundred skewed hosts, escaped strings,
 * arrays, absent fields):
 *
 *   plain  one 200 MB NDJSON file
 *   gzip   the same lines as tens of gzip files shaped like log export output
 *          (`<YYYYMMDD>/<start>_<end>_<hash>.log.gz`), given to eval as a directory and to DuckDB as a glob
 *
 * Each row is the median of ROUNDS interleaved rounds (every command once per round, in turn, so a slow moment
 * of the machine hits all alike), each command in its own process, start-up included; peak RSS from /proc.
 *   baseline     the fast obvious program: read the bytes, split the Buffer on \n, JSON.parse every line, one
 *                thread (gunzip first for the gzip workload)
 *   split only   the same without parsing: the ceiling of any line-by-line program
 *   gunzip alone (gzip workload) decompression of every file, one thread
 *   DuckDB       read_ndjson with only the filter's fields declared (dataset types), records=true, 2 threads; the
 *                query is written by this script, so the peer's process loads DuckDB alone
 * Ratios are baseline time / command time (higher is faster). Goals: plain F1 >= 3.5x, F2 >= 3.0x, F3 >= 2.5x
 * the baseline; every filter >= 1.25x DuckDB on both workloads; peak RSS < 200 MB; counts equal to DuckDB's.
 *
 *   npm run build && node bench/eval.bench.mjs [--quick] [--mb 200] [--files 24] [--rounds 5] [--only plain|gzip]
 *
 * --quick: 40 MB, 8 files, 3 rounds (a quick look; the goals are judged on the full workload).
 * --against DIR: another built checkout of the repository (say, main before a change, `npm run build` there);
 *   its `logfilter eval` runs in the same interleaved rounds, and each filter's row says how this build's time
 *   compares with it (before / after: above 1 means this build is faster), so a change is judged against its
 *   base under the same load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FILTERS, arg, bin, dataDir, gzipTree, here, listGz, measure, median, plainData, requireBuild, writeFilterFiles } from './workloads.mjs';
import { query } from './duckdb-sql.mjs';

const QUICK = process.argv.includes('--quick');
const MB = Number(arg('mb', QUICK ? '40' : '200'));
const FILES = Number(arg('files', QUICK ? '8' : '24'));
const ROUNDS = Number(arg('rounds', QUICK ? '3' : '5'));
const ONLY = arg('only', '');
const AGAINST = arg('against', '');
const againstBin = AGAINST && path.join(path.resolve(AGAINST), 'packages/cli/bin/logfilter.cjs');
if (againstBin && !fs.existsSync(path.join(path.resolve(AGAINST), 'packages/cli/dist/logfilter.cjs'))) {
  console.error(`eval bench: --against ${AGAINST} is not a built checkout (npm run build there)`);
  process.exit(2);
}
const SEED = 42;
requireBuild('eval bench');

// ---------------------------------------------------------------- data
const data = plainData(MB, SEED);
const size = fs.statSync(data).size;

// ---------------------------------------------------------------- filters
const filterFiles = writeFilterFiles();

// ---------------------------------------------------------------- baselines (each its own process)
const BASELINE = `
import fs from 'node:fs';
import zlib from 'node:zlib';
const [mode, ...files] = process.argv.slice(1);
let n = 0;
for (const f of files) {
  const gz = f.endsWith('.gz');
  const input = fs.createReadStream(f, { highWaterMark: 1 << 20 });
  let carry = null;
  for await (let buf of gz ? input.pipe(zlib.createGunzip({ chunkSize: 1 << 20 })) : input) {
    if (mode === 'gunzip') { n += buf.length; continue; }
    if (carry) { buf = Buffer.concat([carry, buf]); carry = null; }
    let s = 0, e;
    while ((e = buf.indexOf(10, s)) >= 0) {
      if (e > s) { n++; if (mode === 'parse') JSON.parse(buf.toString('utf8', s, e)); }
      s = e + 1;
    }
    if (s < buf.length) carry = buf.subarray(s);
  }
  if (carry && carry.length && mode !== 'gunzip') { n++; if (mode === 'parse') JSON.parse(carry.toString('utf8')); }
}
process.stdout.write(JSON.stringify({ total: n }));
`;

const node = process.execPath;
async function workload(label, input, files, duckInput, bytes) {
  const tasks = [
    ['split only', 'ceiling', () => measure(node, ['--input-type=module', '-e', BASELINE, 'split', ...files])],
    ['baseline: split + JSON.parse', 'baseline', () => measure(node, ['--input-type=module', '-e', BASELINE, 'parse', ...files])],
  ];
  if (label === 'gzip') tasks.push(['gunzip alone', 'gunzip', () => measure(node, ['--input-type=module', '-e', BASELINE, 'gunzip', ...files])]);
  for (const name of Object.keys(FILTERS)) {
    tasks.push([`${name}: logfilter eval`, `eval:${name}`, () => measure(node, [bin, 'eval', filterFiles[name], ...[input].flat(), '--json', '--no-progress'])]);
    tasks.push([`${name}: --workers 0`, `w0:${name}`, () => measure(node, [bin, 'eval', filterFiles[name], ...[input].flat(), '--json', '--no-progress', '--workers', '0'])]);
    if (againstBin) {
      tasks.push([`${name}: --against eval`, `against:${name}`, () => measure(node, [againstBin, 'eval', filterFiles[name], ...[input].flat(), '--json', '--no-progress'])]);
      tasks.push([`${name}: --against --workers 0`, `againstw0:${name}`, () => measure(node, [againstBin, 'eval', filterFiles[name], ...[input].flat(), '--json', '--no-progress', '--workers', '0'])]);
    }
    // The peer's query is written here, so its process loads DuckDB and nothing of ours.
    const sqlFile = path.join(dataDir, `query-${label}-${name.replace(/\W+/g, '-')}.sql`);
    fs.writeFileSync(sqlFile, query(FILTERS[name], duckInput));
    tasks.push([`${name}: DuckDB`, `duck:${name}`, () => measure(node, [path.join(here, 'duckdb-peer.mjs'), sqlFile])]);
  }
  const runs = new Map(tasks.map(([, id]) => [id, []]));
  for (let r = 0; r < ROUNDS; r++) for (const [, id, run] of tasks) runs.get(id).push(await run());
  const med = (id) => ({ seconds: median(runs.get(id).map((m) => m.seconds)), peak: Math.max(...runs.get(id).map((m) => m.peak)), out: runs.get(id)[0].out });
  const base = med('baseline').seconds;
  const mb = bytes / 1048576;
  console.log(`\n${label}: ${mb.toFixed(0)} MB of http_requests NDJSON${label === 'gzip' ? ` as ${files.length} .log.gz files (${(files.reduce((s, f) => s + fs.statSync(f).size, 0) / 1048576).toFixed(1)} MB compressed)` : ''}, median of ${ROUNDS} interleaved rounds, whole process`);
  const row = (name, m, extra = '') => console.log(`  ${name.padEnd(34)} ${m.seconds.toFixed(3).padStart(7)} s ${(mb / m.seconds).toFixed(0).padStart(6)} MB/s  ${(base / m.seconds).toFixed(2).padStart(5)}x  peak ${m.peak.toFixed(0).padStart(4)} MB${extra}`);
  row('split only (ceiling)', med('ceiling'));
  row('baseline: split + JSON.parse', med('baseline'));
  if (label === 'gzip') row('gunzip alone', med('gunzip'));
  let ok = true;
  const table = [];
  for (const name of Object.keys(FILTERS)) {
    const e = med(`eval:${name}`);
    const w = med(`w0:${name}`);
    const d = med(`duck:${name}`);
    const je = JSON.parse(e.out);
    const jw = JSON.parse(w.out);
    const jd = JSON.parse(d.out);
    const same = je.matched === jd.matched && je.total === jd.total && jw.matched === je.matched;
    row(`${name}: logfilter eval`, e, `  matched ${je.matched}/${je.total}`);
    row(`${name}: logfilter --workers 0`, w);
    if (againstBin) {
      const a = med(`against:${name}`);
      const aw = med(`againstw0:${name}`);
      const ja = JSON.parse(a.out);
      row(`${name}: --against eval`, a, `  this build ${(a.seconds / e.seconds).toFixed(3)}x${ja.matched === je.matched && ja.total === je.total ? '' : '  COUNTS DIFFER'}`);
      row(`${name}: --against --workers 0`, aw, `  this build ${(aw.seconds / w.seconds).toFixed(3)}x`);
      ok &&= ja.matched === je.matched && ja.total === je.total;
    }
    row(`${name}: DuckDB (declared, 2 threads)`, d, `  matched ${jd.matched}/${jd.total}${same ? '' : '  COUNTS DIFFER'}`);
    table.push([name, base / e.seconds, base / w.seconds, base / d.seconds, d.seconds / e.seconds, e.peak]);
    ok &&= same;
  }
  const goals = { 'F1 eq host': 3.5, 'F2 and of 4': 3.0, 'F3 nested 12': 2.5 };
  console.log(`\n  | ${label} | logfilter eval (default workers) | \`--workers 0\` | DuckDB, declared columns | eval vs DuckDB | peak RSS |`);
  console.log('  |---|---|---|---|---|---|');
  for (const [name, e, w, d, vs, peak] of table) {
    const goal = label === 'plain' ? ` (goal ${goals[name]}x)` : '';
    console.log(`  | ${name} | ${e.toFixed(2)}x${goal} | ${w.toFixed(2)}x | ${d.toFixed(2)}x | ${vs.toFixed(2)}x (goal 1.25x) | ${peak.toFixed(0)} MB |`);
  }
  return ok;
}

console.log(`eval bench: ${os.availableParallelism?.() ?? os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
let ok = true;
if (ONLY !== 'gzip') ok = (await workload('plain', data, [data], data, size)) && ok;
if (ONLY !== 'plain') {
  const dir = gzipTree(data, MB, FILES);
  const files = listGz(dir);
  // --file-list: pass the files one by one (as a shell glob would) instead of the directory.
  ok = (await workload('gzip', process.argv.includes('--file-list') ? files : dir, files, path.join(dir, '*', '*.log.gz'), size)) && ok;
}
if (!ok) {
  console.log('counts differ between logfilter and DuckDB');
  process.exitCode = 1;
}
