#!/usr/bin/env node
/**
 * `logfilter eval --engine duckdb` against the built-in evaluator (the baseline), whole process, on the
 * workloads and filters of the evaluator bench (bench/workloads.mjs): one plain NDJSON file of generated
 * http_requests lines (200 MB by default), and the same lines as gzip files shaped like log export output
 * (`<YYYYMMDD>/<start>_<end>_<hash>.log.gz`, 24 files); F1 one condition, F2 an `and` of four, F3 a nested
 * dozen with negations. Medians of RUNS interleaved rounds; ratio = built-in time / duckdb time (above 1:
 * DuckDB faster). Counts must be equal, or the bench fails.
 *
 *   npm run build && node bench/sql-engine.bench.mjs [--mb 200] [--files 24] [--runs 3]
 */
import fs from 'node:fs';
import os from 'node:os';
import { FILTERS, arg, bin, gzipTree, listGz, measure, median, plainData, requireBuild, writeFilterFiles } from './workloads.mjs';

const MB = Number(arg('mb', '200'));
const FILES = Number(arg('files', '24'));
const RUNS = Number(arg('runs', '3'));
const SEED = 42;
requireBuild('sql-engine bench');

const plain = plainData(MB, SEED);
const gzFiles = listGz(gzipTree(plain, MB, FILES));
const filterFiles = writeFilterFiles();

// Both engines get the same inputs: the file, or the gzip files one by one (as a shell glob expands them).
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
    const m = await measure(process.execPath, t.args);
    m.out = JSON.parse(m.out);
    const prev = times.get(key) ?? { seconds: [], peak: 0, out: m.out };
    prev.seconds.push(m.seconds);
    prev.peak = Math.max(prev.peak, m.peak);
    times.set(key, prev);
  }
}

console.log(`sql-engine bench: ${(fs.statSync(plain).size / 1048576).toFixed(0)} MB of http_requests NDJSON (plain; and ${FILES} gzip files), ${os.availableParallelism?.() ?? os.cpus().length} cores, median of ${RUNS}, whole process`);
console.log(`${'workload'.padEnd(9)} ${'filter'.padEnd(13)} ${'built-in'.padStart(9)} ${'duckdb'.padStart(9)} ${'built-in/duckdb'.padStart(16)}  peak RSS built-in / duckdb   matched/total`);
let ok = true;
for (const w of Object.keys(workloads)) {
  for (const name of Object.keys(FILTERS)) {
    const b = times.get(`${w}|${name}|builtin`);
    const d = times.get(`${w}|${name}|duckdb`);
    const same = b.out.total === d.out.total && b.out.matched === d.out.matched;
    ok &&= same;
    console.log(
      `${w.padEnd(9)} ${name.padEnd(13)} ${median(b.seconds).toFixed(2).padStart(8)}s ${median(d.seconds).toFixed(2).padStart(8)}s ${(median(b.seconds) / median(d.seconds)).toFixed(2).padStart(15)}x  ${b.peak.toFixed(0).padStart(5)} / ${d.peak.toFixed(0).padStart(5)} MB   ${d.out.matched}/${d.out.total}${same ? '' : `  COUNTS DIFFER (built-in ${b.out.matched}/${b.out.total})`}`,
    );
  }
}
if (!ok) process.exitCode = 1;
