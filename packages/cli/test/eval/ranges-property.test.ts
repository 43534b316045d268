/**
 * Plain files read in byte ranges, each read and scanned in chunks (job-runner.ts), and gzip files read whole,
 * against the stream reader
 * (line-blocks.ts) on random files: any line lengths (blank lines, CRLF, malformed and over-long lines, a last
 * line without `\n`), any chunk, range and line-limit sizes. Counts, malformed line numbers and printed lines
 * must be the same.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateInputs } from '../../src/eval/index.js';
import { buildWorkerScript, tempDir } from './support.js';

let dir: string;
let script: string;
beforeAll(async () => {
  dir = tempDir();
  script = await buildWorkerScript(dir);
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const FILTER = { where: { or: [{ key: 'h', operator: 'eq', value: 'a' }, { key: 'p', operator: 'contains', value: 'zz' }] } } as const;

const line = fc.oneof(
  fc.record({ h: fc.constantFrom('a', 'b'), p: fc.string({ unit: fc.constantFrom('z', 'y', 'é'), maxLength: 300 }) }).map((o) => JSON.stringify(o)),
  fc.constantFrom('', '   ', '{"h":"a"', '[1]', 'not json', '{"h":"a"}\r'),
);

/** Counts, malformed line numbers and printed lines of one file: read in ranges (`options`) and as a stream. */
async function both(text: string, name: string, options: object, maxLineBytes: number, emit: 'match' | undefined = 'match') {
  const file = path.join(dir, name);
  fs.writeFileSync(file, name.endsWith('.gz') ? zlib.gzipSync(text) : text);
  const collect = async (input: { name: string; path?: string; stream?: never }, extra: object) => {
    const out: Buffer[] = [];
    const r = await evaluateInputs(FILTER as never, [input], { emit, maxLineBytes, onOutput: (b) => void out.push(Buffer.from(b)), ...extra });
    return { total: r.total, matched: r.matched, malformed: r.malformed, lines: r.malformedLines.map((m) => m.line), out: Buffer.concat(out).toString('latin1') };
  };
  return { want: await collect({ name: 'f', stream: [Buffer.from(text)] as never }, { workers: 0 }), got: await collect({ name: 'f', path: file }, options) };
}

const file = fc.tuple(fc.array(line, { maxLength: 60 }), fc.boolean()).map(([lines, nl]) => lines.join('\n') + (nl && lines.length > 0 ? '\n' : ''));

describe('plain files read in chunked ranges', () => {
  it('give what the stream reader gives, whatever the chunk, range and line-limit sizes', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(file, fc.integer({ min: 1, max: 700 }), fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 20, max: 800 }), async (text, chunkBytes, rangeBytes, maxLine) => {
        const { want, got } = await both(text, `f${run++}.ndjson`, { workers: 0, chunkBytes, rangeBytes }, maxLine);
        expect(got).toEqual(want);
      }),
      { numRuns: 200 },
    );
  }, 120_000);

  it('give the same on a worker beside the main thread', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(file, fc.integer({ min: 1, max: 700 }), fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 20, max: 800 }), async (text, chunkBytes, rangeBytes, maxLine) => {
        const { want, got } = await both(text, `w${run++}.ndjson`, { workers: 1, workerScript: script, chunkBytes, rangeBytes }, maxLine);
        expect(got).toEqual(want);
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('keeps the lines right after a short over-long line intact, in ranges and in a gzip file read whole', async () => {
    // a 26-byte line over a 20-byte limit: the lines after it lie where scanning the lines before it may write
    const text = ['{"h":"a","p":""}', '{"h":"a","p":"zzzéééz"}', '', '{"h":"a","p":"zz"}', ''].join('\n') + '\n';
    for (const [name, options] of [['short.ndjson', { workers: 0 }], ['short.ndjson.gz', { workers: 1, workerScript: script }]] as const) {
      const { want, got } = await both(text, name, options, 20, undefined);
      expect(got).toEqual(want);
      expect(got).toMatchObject({ total: 3, matched: 2, malformed: 1, lines: [2] });
    }
  });

  it('and a gzip file read whole by a worker gives the same counts (nothing printed: printing reads files in turn)', async () => {
    let run = 0;
    await fc.assert(
      // short limits: over-long lines are many, and short (the lines around them lie close)
      fc.asyncProperty(file, fc.integer({ min: 20, max: 120 }), async (text, maxLine) => {
        const { want, got } = await both(text, `g${run++}.ndjson.gz`, { workers: 1, workerScript: script }, maxLine, undefined);
        expect(got).toEqual(want);
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
