/**
 * Whole-file jobs are handed to the threads largest first (evaluate.ts handOutOrder; gzip weighted as its
 * content), so that no thread is left alone with a large file at the end; each file is evaluated exactly once,
 * and the counts are those of one thread, whatever the number of threads.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { evaluateInputs } from '../../src/eval/index.js';
import { handOutOrder } from '../../src/eval/evaluate.js';
import { EvalPool, WORKER_JOBS } from '../../src/eval/pool.js';
import { buildWorkerScript, tempDir, write } from './support.js';

let dir: string;
let script: string;

beforeAll(async () => {
  dir = tempDir();
  script = await buildWorkerScript(dir);
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const FILTER = { where: { key: 'h', operator: 'eq', value: 'a' } } as const;

function lines(n: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(i % 211 === 3 ? '{"h":' : JSON.stringify({ h: (i + seed) % 3 ? 'b' : 'a', i, seed }));
  return out.join('\n') + '\n';
}

describe('handOutOrder', () => {
  it('gives the whole-file jobs, most work first (gzip at six times its size), ties in input order', () => {
    const plans = [
      { mode: 'file', src: { size: 10 } },
      { mode: 'file', src: { size: 3, gzip: true } },
      { mode: 'main', src: { size: 1000 } },
      { mode: 'file', src: { size: 20 } },
      { mode: 'error' },
      { mode: 'file', src: { size: 18 } },
      { mode: 'ranges', src: { size: 5000 } },
      { mode: 'file', src: { size: 10 } },
    ];
    expect(handOutOrder(plans)).toEqual([3, 1, 5, 0, 7]);
    expect(handOutOrder([])).toEqual([]);
  });
});

describe('whole files on several threads', () => {
  it('are handed out largest first, each once, with the counts of one thread', async () => {
    // Input order puts the largest files last: in that order one thread would be left alone with them. (Plain
    // files given with --workers N are read in ranges: gzip files are the whole-file jobs.)
    const sizes = [300, 500, 800, 1200, 2000, 9000, 14000];
    const names = sizes.map((n, k) => write(dir, `f${k}.log.gz`, zlib.gzipSync(lines(n, k))) && `f${k}.log.gz`);
    const inputs = names.map((n) => ({ name: n, path: path.join(dir, n) }));
    const run = vi.spyOn(EvalPool.prototype, 'run');
    const two = await evaluateInputs(FILTER as never, inputs, { workerScript: script, workers: 1 });
    const handed = run.mock.calls.map(([job]) => path.basename((job as { path: string }).path));
    run.mockClear();
    const three = await evaluateInputs(FILTER as never, inputs, { workerScript: script, workers: 2 });
    expect(run.mock.calls.length).toBe(names.length);
    const one = await evaluateInputs(FILTER as never, inputs, { workers: 0 });

    expect(handed).toEqual([...names].reverse());
    expect(new Set(handed).size).toBe(names.length);
    expect(two.workers).toBe(1);
    expect(three.workers).toBe(2);
    const pick = (r: typeof one) => ({ total: r.total, matched: r.matched, malformed: r.malformed, lines: r.malformedLines, bytes: r.bytes });
    expect(pick(two)).toEqual(pick(one));
    expect(pick(three)).toEqual(pick(one));
    expect(one.total).toBe(sizes.reduce((a, b) => a + b, 0));
  }, 120_000);
});

describe('the pool', () => {
  it('gives a worker WORKER_JOBS jobs at once before the main thread takes one (a worker is not left idle while this thread runs a job)', async () => {
    // A stand-in worker that answers every range at once with a marker the main thread's own runs cannot give.
    const fake = write(dir, 'fake-worker.cjs', `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => {
  if (m.type === 'range') parentPort.postMessage({ type: 'result', id: m.id, tally: { lines: 0, total: 0, matched: 0, malformed: 0, parsed: 0, read: 0, bytes: 0, malformedAt: [] }, out: new Uint8Array(0), bytes: -1 });
  else if (m.type === 'finish') parentPort.postMessage({ type: 'final', seen: [] });
});`);
    const file = write(dir, 'held.log', lines(50, 1));
    const size = fs.statSync(file).size;
    const pool = new EvalPool(fake, 1, { options: { validate: false, explain: false, strict: false }, maxLine: 1 << 20 });
    try {
      pool.setFilter(FILTER as never);
      const jobs = Array.from({ length: WORKER_JOBS + 1 }, () => pool.run({ type: 'range', path: file, size, start: 0, end: size }));
      const byWorker = (await Promise.all(jobs)).map((m) => m.bytes === -1);
      expect(WORKER_JOBS).toBeGreaterThanOrEqual(3);
      expect(byWorker).toEqual([...Array<boolean>(WORKER_JOBS).fill(true), false]);
    } finally {
      await pool.terminate();
    }
  }, 120_000);
});
