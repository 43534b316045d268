/**
 * The pieces of the scale bench (bench/scale.bench.mjs) that decide what it measures: the log export layout of
 * its workloads, the cache and its completion marker, and the random hidden-style filter generator (every
 * drawn filter compiles, every operator is drawn, selectivity stays within 0–95%), and its 2-core section run
 * in its smallest form (a quarter-MB workload, one round) for the lines it prints, with numbers; no figure is
 * judged. The bench modules load the built core (packages/core/dist): `npm run build` first.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, createMatcher, OPERATORS } from '@logfilter/core';

const bench = (name: string) => import(pathToFileURL(path.resolve(__dirname, '..', 'bench', name)).href);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'logfilter-scale-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('scale workloads: the log export layout', () => {
  it('names files <YYYYMMDD>/<start>_<end>_<hash>.log[.gz], 30 s apart, across midnight', async () => {
    const { exportName } = await bench('scale-data.mjs');
    expect(exportName(0, true)).toBe(path.join('20250506', '20250506T235900Z_20250506T235930Z_9e3779b1.log.gz'));
    expect(exportName(0, false)).toBe(path.join('20250506', '20250506T235900Z_20250506T235930Z_9e3779b1.log'));
    expect(exportName(2, true)).toBe(path.join('20250507', '20250507T000000Z_20250507T000030Z_daa66d13.log.gz'));
    const names = Array.from({ length: 320 }, (_, i) => exportName(i, true));
    for (const n of names) expect(n).toMatch(/^(\d{8})[\\/]\1T\d{6}Z_\d{8}T\d{6}Z_[0-9a-f]{8}\.log\.gz$/);
    expect(new Set(names).size).toBe(320);
    // sorted by path = sorted by time (what `logfilter eval DIR` reads in order)
    expect([...names].sort()).toEqual(names);
  });

  it('cuts a workload into 32 MB files and a remainder', async () => {
    const { fileSizes } = await bench('scale-data.mjs');
    const MB = 1048576;
    expect(fileSizes(20)).toEqual([20 * MB]);
    expect(fileSizes(200)).toHaveLength(7);
    expect(fileSizes(200).at(-1)).toBe(8 * MB);
    expect(fileSizes(2048)).toHaveLength(64);
    expect(fileSizes(10240)).toHaveLength(320);
    for (const mb of [20, 200, 2048, 10240]) expect(fileSizes(mb).reduce((a: number, b: number) => a + b, 0)).toBe(mb * MB);
  });

  it('caches under $LOGFILTER_BENCH_CACHE, else ~/.cache/logfilter-bench', async () => {
    const { cacheDir } = await bench('scale-data.mjs');
    expect(cacheDir({ LOGFILTER_BENCH_CACHE: tmp })).toBe(tmp);
    expect(cacheDir({})).toBe(path.join(os.homedir(), '.cache', 'logfilter-bench'));
  });
});

describe('scale workloads: generation and the completion marker', () => {
  const cache = path.join(tmp, 'cache');
  const opts = { fileMb: 0.1, cache, jobs: 2, log: () => {} };
  let first: any;
  beforeAll(async () => {
    const { ensureWorkload } = await bench('scale-data.mjs');
    first = await ensureWorkload(0.25, opts);
  }, 60_000);

  it('writes plain and gzip trees of the same lines, varied, and a marker that counts them', async () => {
    const { listTree, readMarker } = await bench('scale-data.mjs');
    const plain = listTree(first.plain);
    const gz = listTree(first.gzip);
    expect(plain).toHaveLength(3);
    expect(gz.map((f: string) => path.relative(first.gzip, f))).toEqual(plain.map((f: string) => path.relative(first.plain, f) + '.gz'));
    const text = plain.map((f: string) => fs.readFileSync(f, 'utf8')).join('');
    expect(gz.map((f: string) => zlib.gunzipSync(fs.readFileSync(f)).toString('utf8')).join('')).toBe(text);
    const lines = text.split('\n').slice(0, -1);
    expect(readMarker(first.dir)).toMatchObject({ files: 3, lines: lines.length, bytes: Buffer.byteLength(text) });
    for (const l of lines) expect(typeof JSON.parse(l)).toBe('object');
    // every file its own seed: no line repeats across files
    expect(new Set(lines.map((l: string) => JSON.parse(l).RayID)).size).toBe(lines.length);
    expect(Math.abs(Buffer.byteLength(text) - 0.25 * 1048576)).toBeLessThan(4096);
  });

  it('reuses a complete workload and regenerates one without its marker', async () => {
    const { ensureWorkload, readMarker } = await bench('scale-data.mjs');
    const again = await ensureWorkload(0.25, opts);
    expect(again.seconds).toBe(first.seconds);
    // a half-written set: no marker, a stray partial file
    fs.rmSync(path.join(first.dir, '.complete'));
    fs.writeFileSync(path.join(first.plain, 'partial.tmp'), 'x');
    expect(readMarker(first.dir)).toBeUndefined();
    const redone = await ensureWorkload(0.25, opts);
    expect(fs.existsSync(path.join(redone.plain, 'partial.tmp'))).toBe(false);
    expect(readMarker(redone.dir)).toMatchObject({ files: 3, lines: first.lines, bytes: first.bytes });
  }, 60_000);
});

describe('random hidden-style filters', () => {
  let sample: Record<string, unknown>[];
  beforeAll(async () => {
    const { writeLines } = await bench('gen-http-requests.mjs');
    const file = path.join(tmp, 'sample.ndjson');
    writeLines(file, 400 * 2500, 7, 0);
    sample = fs.readFileSync(file, 'utf8').split('\n').slice(0, -1).slice(0, 400).map((l) => JSON.parse(l));
  });

  it('draws filters that compile, within 1–30 conditions and 0–95% selectivity, covering every operator', async () => {
    const { drawFilters, MAX_BYTES } = await bench('random-filters.mjs');
    const counts = new Set<number>();
    for (const seed of [1, 2, 3, 4]) {
      const set = drawFilters({ seed, count: 12, sample, attempts: 60 });
      expect(set).toHaveLength(12);
      const ops = new Set(set.flatMap((f: any) => f.operators));
      expect([...ops].sort()).toEqual(OPERATORS.map((o) => o.name).sort());
      for (const f of set) {
        const c = compile(f.source, { dataset: 'http_requests', maxBytes: MAX_BYTES });
        expect(c.ok).toBe(true);
        expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(c.json).toBe(f.json);
        expect(f.conditions).toBeGreaterThanOrEqual(1);
        expect(f.conditions).toBeLessThanOrEqual(30);
        counts.add(f.conditions);
        const m = createMatcher(c.filter!);
        const sel = sample.filter((o) => m.test(o)).length / sample.length;
        expect(sel).toBe(f.sampleSelectivity);
        expect(sel).toBeGreaterThanOrEqual(0);
        expect(sel).toBeLessThanOrEqual(0.95);
      }
      // negations and nested groups appear in every set
      expect(set.some((f: any) => /\bnot \(/.test(f.source))).toBe(true);
      expect(set.some((f: any) => /\(\(/.test(f.source))).toBe(true);
    }
    expect(Math.min(...counts)).toBeLessThanOrEqual(5);
    expect(Math.max(...counts)).toBeGreaterThanOrEqual(25);
  }, 120_000);

  it('draws the same filters from the same seed, and others from another', async () => {
    const { drawFilters } = await bench('random-filters.mjs');
    const a = drawFilters({ seed: 9, count: 3, sample, attempts: 30 }).map((f: any) => f.json);
    const b = drawFilters({ seed: 9, count: 3, sample, attempts: 30 }).map((f: any) => f.json);
    const c = drawFilters({ seed: 10, count: 3, sample, attempts: 30 }).map((f: any) => f.json);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  }, 60_000);
});

describe('the README\'s scale bench commands', () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### The scale bench'));
  const block = /^```sh\n([\s\S]*?)^```$/m.exec(section)![1];
  const commands = block.trim().split('\n');
  const run = (args: string[]) => spawnSync(process.execPath, args, { cwd: path.resolve(__dirname, '..'), encoding: 'utf8', env: { ...process.env, LOGFILTER_BENCH_CACHE: tmp } });

  it('are options the bench takes (checked with --plan, which runs nothing)', () => {
    expect(commands.length).toBeGreaterThanOrEqual(3);
    for (const c of commands) {
      const [cmd, ...args] = c.split(/\s+/);
      expect(cmd).toBe('node');
      const r = run([...args, '--plan']);
      expect(r.status, `${c}: ${r.stderr}`).toBe(0);
      const plan = JSON.parse(r.stdout);
      expect(plan.cache).toBe(tmp);
    }
    const quick = JSON.parse(run(['bench/scale.bench.mjs', '--quick', '--plan']).stdout);
    expect(quick).toMatchObject({ sizes: [20, 200], rounds: 3, randomSizes: [200] });
    const all = JSON.parse(run(['bench/scale.bench.mjs', '--plan']).stdout);
    expect(all).toMatchObject({ sizes: [20, 200, 2048, 10240], rounds: 5, bigRounds: 5, randomSizes: [200, 2048], seed: 1, contentionRounds: 3 });
  });

  it('refuses bad options with exit 2', () => {
    for (const bad of [['--sizes', '2x'], ['--shapes', 'F9'], ['--variants', 'zip'], ['--rounds', '0'], ['--contention-rounds', '0'], ['--bogus'], ['--rounds'], ['--only', 'both']]) {
      const r = run(['bench/scale.bench.mjs', ...bad, '--plan']);
      expect(r.status, bad.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
  });
});

describe('the scale bench\'s 2-core section, in its smallest form', () => {
  // CPU comes from /usr/bin/time (Debian's `time` package), which the bench needs for these lines.
  const hasTime = fs.existsSync('/usr/bin/time');
  let out = '';
  let status: number | null = null;
  beforeAll(() => {
    if (!hasTime) return;
    const r = spawnSync(
      process.execPath,
      ['bench/scale.bench.mjs', '--sizes', '0.25', '--shapes', 'F3', '--variants', 'plain', '--rounds', '1', '--contention-rounds', '1', '--only', 'scale', '--jobs', '1'],
      { cwd: path.resolve(__dirname, '..'), encoding: 'utf8', env: { ...process.env, LOGFILTER_BENCH_CACHE: path.join(tmp, 'two-core') } },
    );
    out = r.stdout;
    status = r.status;
    if (r.status !== 0) console.error(r.stdout, r.stderr);
  }, 120_000);

  const num = String.raw`-?\d+\.\d+`;
  it.skipIf(!hasTime)('prints the 1-thread/default table, the two-process and two-thread-read lines and the contention line, with numbers', () => {
    expect(status).toBe(0);
    // the table row of the size: walls, speed-up, CPUs, the split's extra CPU, idle core-seconds, reading, start-up, matching
    expect(out).toMatch(new RegExp(String.raw`\| 0\.25 MB \| ${num} s \| ${num} s \| ${num}x \| ${num} s \| ${num} s \| ${num} s \(-?\d+%\) \| ${num} s \| ${num} s \| ${num} s \| ${num} s \|`));
    // the rows of the reads and of the two processes, with their counts, as measured commands
    expect(out).toMatch(new RegExp(String.raw`read only, two threads +${num}s +\d+ +${num}s +\d+ MB`));
    expect(out).toMatch(new RegExp(String.raw`plain F3: 2 processes on halves +${num}s +\d+ +${num}s +\d+ MB +\d+/\d+`));
    // the prose lines: two processes against one thread, the split against them, reading on two threads against one
    expect(out).toMatch(new RegExp(String.raw`0\.25 MB: two processes ${num} s, CPU ${num} s \([+-]?-?\d+% against one thread`));
    expect(out).toMatch(new RegExp(String.raw`the split's CPU against theirs [+-]?${num} s \(-?\d+%: what the split itself adds\); reading on two threads ${num} s`));
    expect(out).toMatch(new RegExp(String.raw`\(${num}x one thread's ${num} s\), CPU ${num} s against ${num} s\.`));
    expect(out).toMatch(new RegExp(String.raw`a busy loop ${num}x,`));
    expect(out).toMatch(new RegExp(String.raw`a copy of 64 MB buffers ${num}x\.`));
    expect(out).not.toMatch(/NaN|FAIL/);
  });
});
