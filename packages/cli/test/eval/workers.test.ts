/**
 * Workers reading their own byte ranges give exactly what the main thread gives: counts, malformed line
 * numbers, printed lines in file order, explain counts and the --strict stop. Small ranges make many lines
 * (including a long one) cross range boundaries.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { evaluateFile, evaluateInputs } from '../../src/eval/index.js';
import type { EvalOptions } from '../../src/eval/index.js';
import { cores } from '../../src/eval/pool.js';
import { buildWorkerScript, tempDir, write } from './support.js';

let dir: string;
let script: string;
let logs: string;

const FILTER = {
  where: {
    and: [
      { key: 'h', operator: 'in', value: ['a', 'b'] },
      { or: [{ key: 's', operator: 'geq', value: 500 }, { key: 't', operator: 'contains', value: 'x' }] },
    ],
  },
} as const;

beforeAll(async () => {
  dir = tempDir();
  script = await buildWorkerScript(dir);
  const lines: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const h = ['a', 'b', 'c'][i % 3];
    if (i % 97 === 0) lines.push('');
    else if (i % 89 === 0) lines.push('{"h":"a","s":');
    else if (i % 501 === 0) lines.push(`{"h":"a","s":500,"pad":"${'y'.repeat(20000)}"}`);
    else lines.push(`{"h":"${h}","s":${400 + (i % 7) * 20},"t":["${i % 5 === 0 ? 'x' : 'z'}"]}${i % 13 === 0 ? '\r' : ''}`);
  }
  logs = write(dir, 'logs.ndjson', lines.join('\n'));
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function both(options: EvalOptions) {
  const outputs: Buffer[][] = [[], []];
  const [main, par] = await Promise.all(
    [0, 2].map((workers, k) =>
      evaluateFile(FILTER as never, logs, { ...options, workers, workerScript: script, rangeBytes: 4096, onOutput: (b) => void outputs[k]!.push(Buffer.from(b)) }),
    ),
  );
  return { main: main!, par: par!, out: outputs.map((o) => Buffer.concat(o).toString('utf8')) };
}

describe('evaluation in worker threads', () => {
  it('uses the workers and agrees with the main thread on counts, line numbers and printed lines', async () => {
    const { main, par, out } = await both({ emit: 'match' });
    expect(par.workers).toBe(2);
    expect(main.workers).toBe(0);
    const pick = (r: typeof main) => ({ total: r.total, matched: r.matched, malformed: r.malformed, lines: r.malformedLines });
    expect(pick(par)).toEqual(pick(main));
    expect(main.matched).toBeGreaterThan(100);
    expect(out[1]).toBe(out[0]);
  }, 120_000);

  it('reads ranges in chunks of any size (a line across chunks and ranges) exactly as a stream is read', async () => {
    const reference: Buffer[] = [];
    const stream = await evaluateInputs(FILTER as never, [{ name: logs, stream: [fs.readFileSync(logs)] as never }], { workers: 0, emit: 'match', onOutput: (b) => void reference.push(Buffer.from(b)) });
    const pick = (r: typeof stream) => ({ total: r.total, matched: r.matched, malformed: r.malformed, lines: r.malformedLines });
    for (const [workers, rangeBytes, chunkBytes] of [[0, 1 << 20, 64], [0, 1 << 20, 1000], [2, 4096, 300], [2, 50_000, 4096], [1, 30_000, 30_000]] as const) {
      const out: Buffer[] = [];
      const r = await evaluateFile(FILTER as never, logs, { workers, workerScript: script, rangeBytes, chunkBytes, emit: 'match', onOutput: (b) => void out.push(Buffer.from(b)) });
      expect(pick(r), `workers ${workers}, ranges ${rangeBytes}, chunks ${chunkBytes}`).toEqual(pick(stream));
      expect(Buffer.concat(out).equals(Buffer.concat(reference))).toBe(true);
    }
    expect(stream.matched).toBeGreaterThan(100);
  }, 120_000);

  it('agrees on --invert output, validation and explain counts', async () => {
    const { main, par, out } = await both({ emit: 'other', explain: true });
    expect(out[1]).toBe(out[0]);
    expect(par.explain).toEqual(main.explain);
    expect(par.malformed).toBe(main.malformed);
    expect(main.validated).toBe(true);
  }, 120_000);

  it('stops at the same malformed line with strict', async () => {
    const { main, par } = await both({ strict: true });
    expect(main.stoppedAt).toEqual({ file: logs, line: 90 });
    expect(par.stoppedAt).toEqual(main.stoppedAt);
    expect(par.total).toBe(main.total);
  }, 120_000);

  describe('a worker started early by the launcher (bin/eval-early-worker.cjs)', () => {
    const KEY = Symbol.for('logfilter.eval.earlyWorker');
    const g = globalThis as { [KEY]?: { worker: Worker; script: string } };
    const early = () => {
      const worker = new Worker(script);
      worker.unref();
      const types: string[] = [];
      worker.on('message', (m: { type: string }) => types.push(m.type));
      const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
      g[KEY] = { worker, script };
      return { types, exited };
    };

    it('is adopted by the pool: it gets its init, runs jobs, and the answer is the same', async () => {
      const { types, exited } = early();
      const main = await evaluateFile(FILTER as never, logs, { workers: 0, workerScript: script });
      // workers: 0 starts no pool: the early worker is ended, not left running.
      await exited;
      expect(g[KEY]).toBeUndefined();
      const second = early();
      const par = await evaluateFile(FILTER as never, logs, { workers: 1, workerScript: script, rangeBytes: 4096 });
      await second.exited;
      expect(g[KEY]).toBeUndefined();
      expect(second.types).toContain('result');
      expect(second.types).toContain('final');
      expect(types).toEqual([]);
      expect({ ...par, seconds: 0, workers: 0 }).toEqual({ ...main, seconds: 0, workers: 0 });
      expect(par.workers).toBe(1);
    }, 120_000);

    it('is ended, not adopted, when it runs another script than the pool', async () => {
      const worker = new Worker('require("node:worker_threads").parentPort.on("message", () => {})', { eval: true });
      worker.unref();
      const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
      g[KEY] = { worker, script: path.join(dir, 'other.cjs') };
      const par = await evaluateFile(FILTER as never, logs, { workers: 1, workerScript: script, rangeBytes: 4096 });
      await exited;
      expect(g[KEY]).toBeUndefined();
      expect(par.workers).toBe(1);
      expect(par.matched).toBeGreaterThan(100);
    }, 120_000);
  });

  describe('with the default number of workers, a plain file', () => {
    // Thresholds set so that this small file is cut into ranges and the choice is forced either way.
    const auto = (parallelMinRead: number) =>
      evaluateFile(FILTER as never, logs, { workers: 'auto', workerScript: script, rangeBytes: 8192, parallelMinBytes: 0, parallelRangesMinBytes: 0, parallelMinRead });

    it.skipIf(cores() < 2)('is shared with the workers or kept on this thread as chosen, with the same answer', async () => {
      const main = await evaluateFile(FILTER as never, logs, { workers: 0, workerScript: script });
      const long = await auto(0);
      const short = await auto(2);
      expect(long.workers).toBe(Math.min(cores(), 8) - 1);
      expect(short.workers).toBe(0);
      for (const r of [long, short]) expect({ ...r, seconds: 0, workers: 0 }).toEqual({ ...main, seconds: 0, workers: 0 });
    }, 120_000);

    it.skipIf(cores() < 2)('is kept on this thread when lines are printed (memory bound), with the same lines', async () => {
      const printed = async (workers: 'auto' | number) => {
        const out: Uint8Array[] = [];
        const r = await evaluateFile({ where: { key: 'h', operator: '!eq', value: 'a' } } as never, logs, {
          workers,
          workerScript: script,
          rangeBytes: 8192,
          parallelMinBytes: 0,
          parallelRangesMinBytes: 0,
          parallelMinRead: 0,
          emit: 'match',
          onOutput: (b) => void out.push(b),
        });
        return { r, text: Buffer.concat(out).toString('utf8') };
      };
      const auto = await printed('auto');
      const asked = await printed(1);
      expect(auto.r.workers).toBe(0);
      expect(asked.r.workers).toBe(1);
      expect(auto.text).toBe(asked.text);
      expect(auto.r.matched).toBeGreaterThan(1000);
    }, 120_000);

    it.skipIf(cores() < 2)('is shared whatever the prefilter lets through by default, and kept on this thread below a share when one is asked for', async () => {
      const run = (where: object, parallelMinRead?: number) =>
        evaluateFile({ where } as never, logs, { workers: 'auto', workerScript: script, rangeBytes: 8192, parallelMinBytes: 0, parallelRangesMinBytes: 0, parallelMinRead });
      const nowhere = { key: 'h', operator: 'eq', value: 'nowhere' };
      const every = { key: 'h', operator: '!eq', value: 'a' };
      // a needle no line holds (nothing is read past the prefilter): shared by default, kept here under a share of 0.5
      const shared = await run(nowhere);
      const kept = await run(nowhere, 0.5);
      expect(shared.workers).toBe(Math.min(cores(), 8) - 1);
      expect(kept.workers).toBe(0);
      expect({ ...shared, seconds: 0, workers: 0 }).toEqual({ ...kept, seconds: 0, workers: 0 });
      // a negation (every line is read) passes that share
      const all = await run(every, 0.5);
      expect(all.workers).toBe(Math.min(cores(), 8) - 1);
      expect(all.matched).toBeGreaterThan(1000);
    }, 120_000);

    it.skipIf(cores() < 2)('is kept on this thread below the size from which sharing pays, even when every line is read', async () => {
      const size = fs.statSync(logs).size;
      const run = (parallelRangesMinBytes: number) =>
        evaluateFile({ where: { key: 'h', operator: '!eq', value: 'a' } } as never, logs, { workers: 'auto', workerScript: script, rangeBytes: 8192, parallelMinBytes: 0, parallelRangesMinBytes });
      const below = await run(size + 1);
      const from = await run(size);
      expect(below.workers).toBe(0);
      expect(from.workers).toBe(Math.min(cores(), 8) - 1);
      expect({ ...below, seconds: 0, workers: 0 }).toEqual({ ...from, seconds: 0, workers: 0 });
    }, 120_000);

    it.skipIf(cores() < 2)('with a share asked for, is shared from the size where reading the bytes alone is worth two threads, even when the prefilter leaves few lines to read', async () => {
      const size = fs.statSync(logs).size;
      const run = (parallelAlwaysBytes: number) =>
        evaluateFile({ where: { key: 'h', operator: 'eq', value: 'nowhere' } } as never, logs, { workers: 'auto', workerScript: script, rangeBytes: 8192, parallelMinBytes: 0, parallelRangesMinBytes: 0, parallelMinRead: 0.5, parallelAlwaysBytes });
      const below = await run(size + 1);
      const from = await run(size);
      expect(below.workers).toBe(0);
      expect(from.workers).toBe(Math.min(cores(), 8) - 1);
      expect({ ...below, seconds: 0, workers: 0 }).toEqual({ ...from, seconds: 0, workers: 0 });
      expect(from.total).toBeGreaterThan(1000);
    }, 120_000);

    it.skipIf(cores() < 2)('in a run of several plain files is shared when the files together reach that size, each alone below it', async () => {
      // A log export directory holds many files of tens of MB: each is below the size from which sharing pays,
      // the run as a whole is far above it, and a CPU-bound filter must then use every core.
      const text = fs.readFileSync(logs);
      const parts = [write(dir, 'p1.ndjson', text), write(dir, 'p2.ndjson', text), write(dir, 'p3.ndjson', text)];
      const inputs = parts.map((p) => ({ name: path.basename(p), path: p }));
      const run = (parallelRangesMinBytes: number) =>
        evaluateInputs({ where: { key: 'h', operator: '!eq', value: 'a' } } as never, inputs, { workers: 'auto', workerScript: script, rangeBytes: 8192, parallelMinBytes: 0, parallelRangesMinBytes });
      const together = await run(text.length * 3);
      const beyond = await run(text.length * 3 + 1);
      expect(together.workers).toBe(Math.min(cores(), 8) - 1);
      expect(beyond.workers).toBe(0);
      expect({ ...together, seconds: 0, workers: 0 }).toEqual({ ...beyond, seconds: 0, workers: 0 });
      expect(together.total).toBe(3 * text.toString('utf8').split('\n').filter(Boolean).length);
    }, 120_000);

    it.skipIf(cores() < 2)('kept on this thread leaves the workers ended, and gzip files after it still count', async () => {
      const text = fs.readFileSync(logs);
      const gz = [write(dir, 'a.ndjson.gz', zlib.gzipSync(text)), write(dir, 'b.ndjson.gz', zlib.gzipSync(text))];
      const inputs = [logs, ...gz].map((p) => ({ name: path.basename(p), path: p }));
      const base = { workerScript: script, rangeBytes: 8192, parallelMinBytes: 0, parallelRangesMinBytes: 0 };
      const main = await evaluateInputs(FILTER as never, inputs, { ...base, workers: 0 });
      const short = await evaluateInputs(FILTER as never, inputs, { ...base, workers: 'auto', parallelMinRead: 2 });
      expect({ ...short, seconds: 0, workers: 0 }).toEqual({ ...main, seconds: 0, workers: 0 });
      expect(main.total).toBeGreaterThan(8000);
    }, 120_000);
  });
});

