/**
 * A plain file read in ranges (job-runner.ts) whose line is far longer than a read chunk: the work of finding
 * line ends must stay linear in the file's size. Each chunk used to search the whole partial line held so far for
 * its last `\n` (and, past a range's end, search it again for the line's end at every 64 KB step): a 50 MB line
 * took 4x the CPU of a 25 MB one. Counted, not timed: `newlineSearch.bytes`, the bytes searched for a `\n`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateInputs } from '../../src/eval/index.js';
import { newlineSearch } from '../../src/eval/job-runner.js';
import { tempDir } from './support.js';

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const FILTER = { where: { key: 'h', operator: 'eq', value: 'a' } } as const;

/** A line of `n` bytes (no `\n`) matching the filter. */
const longLine = (n: number) => {
  const head = '{"h":"a","p":"';
  return head + 'z'.repeat(n - head.length - 2) + '"}';
};

async function searched(text: string, options: object) {
  const file = path.join(dir, `f${Math.random().toString(36).slice(2)}.ndjson`);
  fs.writeFileSync(file, text);
  const before = newlineSearch.bytes;
  const r = await evaluateInputs(FILTER as never, [{ name: 'f', path: file }], { workers: 0, maxLineBytes: 8 << 20, ...options });
  return { bytes: newlineSearch.bytes - before, total: r.total, matched: r.matched, malformed: r.malformed };
}

describe('a line much longer than a read chunk', () => {
  const MB = 1 << 20;
  it.each([
    ['one 2 MB line, no newline, in one range', longLine(2 * MB), { chunkBytes: 4096, rangeBytes: 64 * MB }, 1],
    ['one 2 MB line crossing many ranges', longLine(2 * MB) + '\n', { chunkBytes: 4096, rangeBytes: 16 * 1024 }, 1],
    ['short lines around a 2 MB one', `{"h":"b"}\n${longLine(2 * MB)}\n{"h":"a"}\n`, { chunkBytes: 4096, rangeBytes: 256 * 1024 }, 3],
  ])('%s: line ends found with work linear in the size', async (_name, text, options, total) => {
    const r = await searched(text, options);
    expect(r.total).toBe(total);
    expect(r.malformed).toBe(0);
    // every byte is searched a small, fixed number of times (its range's search, the next range's start)
    expect(r.bytes).toBeLessThan(4 * text.length);
  });

  it('a line over the limit is skipped with linear work too', async () => {
    const text = `${longLine(3 * MB)}\n{"h":"a"}\n`;
    const r = await searched(text, { chunkBytes: 4096, rangeBytes: 64 * MB, maxLineBytes: MB });
    expect([r.total, r.matched, r.malformed]).toEqual([2, 1, 1]);
    expect(r.bytes).toBeLessThan(4 * text.length);
  });
});
