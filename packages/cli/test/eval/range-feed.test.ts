/**
 * The run's plain files cut into ranges as one sequence (range-feed.ts): ranges never cross a file's end, cover
 * every byte once in file order, shrink only towards the end of the whole run, and the next file's ranges are
 * handed out before the current file's results are all taken (no drain at each file's end).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateInputs } from '../../src/eval/index.js';
import { cutRanges, RangeFeed, type RangePool } from '../../src/eval/range-feed.js';
import type { JobResultMessage, RangeJob } from '../../src/eval/protocol.js';
import { FileTally } from '../../src/eval/totals.js';
import { buildWorkerScript, tempDir, write } from './support.js';

const show = (rs: ReturnType<typeof cutRanges>) => rs.map((r) => `${r.file}:${r.start}-${r.end}`).join(' ');

describe('cutRanges', () => {
  it.each([
    // one file: full ranges, then a quarter of the rest (two threads), down to the smallest
    [[32], 2, 8, 1, '0:0-8 0:8-14 0:14-19 0:19-23 0:23-26 0:26-28 0:28-29 0:29-30 0:30-31 0:31-32'],
    // many files: full ranges until the run's end nears, not at every file's end
    [[16, 16, 16], 2, 8, 1, '0:0-8 0:8-16 1:0-8 1:8-14 1:14-16 2:0-4 2:4-7 2:7-10 2:10-12 2:12-13 2:13-14 2:14-15 2:15-16'],
    // a file's rest at most a quarter over the range size is taken whole (0:0-17): no sliver of a range
    [[17, 40], 1, 16, 4, '0:0-17 1:0-16 1:16-28 1:28-34 1:34-38 1:38-40'],
    // four threads shrink sooner (an eighth of the rest)
    [[64], 4, 16, 2, '0:0-8 0:8-15 0:15-22 0:22-28 0:28-33 0:33-37 0:37-41 0:41-44 0:44-47 0:47-50 0:50-52 0:52-54 0:54-56 0:56-58 0:58-60 0:60-62 0:62-64'],
    // empty files give no range, small ones one each
    [[0, 3, 0, 2], 2, 8, 4, '1:0-3 3:0-2'],
  ])('%j, %i threads, ranges of %i, at least %i', (sizes, threads, rangeBytes, smallest, expected) => {
    expect(show(cutRanges(sizes, threads, rangeBytes, smallest))).toBe(expected);
  });

  it('covers every byte of every file once, in order, within the range size', () => {
    for (const [sizes, threads, rangeBytes] of [
      [[1, 2, 3, 1000, 999, 0, 4096], 2, 64],
      [[33_555_023, 33_555_394, 8_390_374], 2, 8 << 20],
      [[10_000], 8, 100],
    ] as const) {
      const rs = cutRanges(sizes, threads, rangeBytes, Math.min(rangeBytes, 16));
      sizes.forEach((size, f) => {
        const mine = rs.filter((r) => r.file === f);
        let at = 0;
        for (const r of mine) {
          expect(r.start).toBe(at);
          expect(r.end).toBeGreaterThan(r.start);
          expect(r.end - r.start).toBeLessThanOrEqual(rangeBytes + (rangeBytes >> 2));
          at = r.end;
        }
        expect(at).toBe(size);
      });
      expect(rs.map((r) => r.file)).toEqual([...rs.map((r) => r.file)].sort((a, b) => a - b));
    }
  });
});

/** A pool whose jobs finish when the test says so. */
function fakePool() {
  const jobs: Array<{ job: Omit<RangeJob, 'id'>; resolve: (m: JobResultMessage) => void; reject: (e: Error) => void; dropped: boolean }> = [];
  const pool: RangePool = {
    run: (job) => new Promise((resolve, reject) => void jobs.push({ job, resolve, reject, dropped: false })),
    dropQueued: () => {
      for (const j of jobs) j.dropped = true;
    },
  };
  const result = (bytes: number): JobResultMessage => ({ type: 'result', id: 0, tally: new FileTally().data(), out: new Uint8Array(0), bytes });
  return { pool, jobs, result };
}

describe('RangeFeed', () => {
  const ranges = cutRanges([16, 16, 16], 2, 8, 4).map((r) => ({ ...r, path: `f${r.file}`, size: 16 }));

  it('hands out the next files ranges before the current files results are taken', async () => {
    const { pool, jobs, result } = fakePool();
    const feed = new RangeFeed(pool, ranges, 1 << 16);
    // every range is queued at once, the later files' too
    expect(jobs.map((j) => `${j.job.path}:${j.job.start}-${j.job.end}`)).toEqual(ranges.map((r) => `${r.path}:${r.start}-${r.end}`));
    expect(feed.nextFile).toBe(0);
    // results come back out of order and are taken in order
    jobs.forEach((j, k) => (k % 2 ? j.resolve(result(k)) : undefined));
    jobs.forEach((j, k) => (k % 2 ? undefined : j.resolve(result(k))));
    const taken: number[] = [];
    while (feed.nextFile >= 0) taken.push((await feed.take()).bytes);
    expect(taken).toEqual(jobs.map((_, k) => k));
  });

  it('keeps at most maxInFlight ranges beyond the oldest not taken (printed lines wait in results)', async () => {
    const { pool, jobs, result } = fakePool();
    const feed = new RangeFeed(pool, ranges, 3);
    expect(jobs.length).toBe(3);
    jobs[0]!.resolve(result(0));
    await feed.take();
    expect(jobs.length).toBe(4);
    expect(jobs[3]!.job.path).toBe('f1');
  });

  it('drops the queued ranges on stop', () => {
    const { pool, jobs } = fakePool();
    const feed = new RangeFeed(pool, ranges, 1 << 16);
    feed.stop();
    expect(feed.nextFile).toBe(-1);
    expect(jobs.every((j) => j.dropped)).toBe(true);
  });
});

describe('a run of several plain files in ranges with workers', () => {
  let dir: string;
  let script: string;
  beforeAll(async () => {
    dir = tempDir();
    script = await buildWorkerScript(dir);
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives the counts, first malformed lines, printed lines and strict stop of one thread', async () => {
    const inputs = [0, 1, 2, 3].map((f) => {
      const lines: string[] = [];
      for (let i = 0; i < 700 + f * 111; i++) lines.push(i % 173 === 5 + f ? '{"h":' : JSON.stringify({ h: (i + f) % 3 ? 'b' : 'a', i, f }));
      const p = write(dir, `part-${f}.ndjson`, lines.join('\n') + (f === 2 ? '' : '\n'));
      return { name: path.basename(p), path: p };
    });
    const filter = { where: { key: 'h', operator: 'eq', value: 'a' } } as never;
    for (const extra of [{}, { emit: 'match' as const }, { strict: true }]) {
      const outs: string[] = [];
      const results = [];
      for (const workers of [0, 1, 2]) {
        const out: Buffer[] = [];
        results.push(await evaluateInputs(filter, inputs, { ...extra, workers, workerScript: script, rangeBytes: 2000, parallelMinBytes: 0, onOutput: (b) => void out.push(Buffer.from(b)) }));
        outs.push(Buffer.concat(out).toString('utf8'));
      }
      const [one, ...more] = results;
      for (const r of more) expect({ ...r, seconds: 0, workers: 0 }).toEqual({ ...one, seconds: 0, workers: 0 });
      expect(outs[1]).toBe(outs[0]);
      expect(outs[2]).toBe(outs[0]);
      expect(more.map((r) => r.workers)).toEqual([1, 2]);
      if ('strict' in extra) expect(one!.stoppedAt).toEqual({ file: inputs[0]!.name, line: 6 });
      else expect(one!.total).toBe(4 * 700 + 6 * 111);
    }
  }, 120_000);
});
