/**
 * Gzip files too large to inflate whole (eval/inflate.ts GzipFileReader, job-runner.ts gunzipChunked): inflated
 * a chunk at a time (GzipFileReader into a buffer; the file job: into the scan buffer, a partial
 * line carried to its front), they give exactly gunzip's content — every member, whatever the chunk
 * boundaries — and lines cut by a chunk boundary are kept whole. Damaged, cut-short or padded data throws, and the file job then streams the file as before:
 * the same counts and the same error. Checked through the evaluation with a tiny whole-file bound, against the
 * whole-file path and the main thread. Run with each inflater (ISA-L's where its addon is built, Node's zlib).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Buffer } from 'node:buffer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_OUT_BYTES, GzipFileReader } from '../../src/eval/inflate.js';
import { evaluateInputs } from '../../src/eval/index.js';
import { INFLATERS, buildWorkerScript, tempDir, useInflater, write } from './support.js';

let dir: string;
let script: string;

beforeAll(async () => {
  dir = tempDir();
  script = await buildWorkerScript(dir);
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** n NDJSON lines, every other one h=a; every 997th is malformed and every 1999th is 70 KB long. */
function text(n: number, seed = 0): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    if ((i + seed) % 997 === 5) lines.push('{"h":"a",');
    else lines.push(JSON.stringify({ h: (i + seed) % 2 ? 'b' : 'a', i, pad: 'x'.repeat((i + seed) % 1999 === 7 ? 70_000 : i % 40) }));
  }
  return Buffer.from(lines.join('\n') + '\n');
}

/** Every chunk GzipFileReader gives of the file (read into one buffer, as the file job reads), copied. */
function chunksOf(file: string): { content: Buffer; sizes: number[] } {
  const fd = fs.openSync(file, 'r');
  const reader = new GzipFileReader(fd, fs.fstatSync(fd).size);
  try {
    const parts: Buffer[] = [];
    const out = Buffer.allocUnsafe(CHUNK_OUT_BYTES);
    for (let n = reader.read(out, 0, out.length); n > 0; n = reader.read(out, 0, out.length)) parts.push(Buffer.from(out.subarray(0, n)));
    return { content: Buffer.concat(parts), sizes: parts.map((p) => p.length) };
  } finally {
    reader.close();
    fs.closeSync(fd);
  }
}

describe.each(INFLATERS)('GzipFileReader with %s', (inflater) => {
  useInflater(inflater);

  it('gives gunzip content in chunks of at most the buffer asked for, every member included', () => {
    const a = text(30_000, 1);
    const b = text(200, 2);
    const file = write(dir, 'two-members.gz', Buffer.concat([zlib.gzipSync(a), zlib.gzipSync(b, { level: 1 })]));
    const { content, sizes } = chunksOf(file);
    expect(content.equals(Buffer.concat([a, b]))).toBe(true);
    expect(sizes.length).toBeGreaterThan(2);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(CHUNK_OUT_BYTES);
  });

  it('throws for data cut short, damaged data, junk or zero padding after the last member (the job then streams it)', () => {
    const gz = zlib.gzipSync(text(20_000, 3));
    const damaged = Buffer.from(gz);
    damaged.fill(0x55, gz.length >> 1, (gz.length >> 1) + 64);
    const cases = {
      'cut.gz': gz.subarray(0, gz.length >> 1),
      'cut-trailer.gz': gz.subarray(0, gz.length - 3),
      'damaged.gz': damaged,
      'junk.gz': Buffer.concat([gz, Buffer.from('junk')]),
      'padded.gz': Buffer.concat([gz, Buffer.alloc(64)]),
    };
    for (const [name, bytes] of Object.entries(cases)) expect(() => chunksOf(write(dir, name, bytes)), name).toThrow();
  });
});

describe.each(INFLATERS)('large gzip files in file jobs, inflated with %s', (inflater) => {
  useInflater(inflater);
  const FILTER = { where: { key: 'h', operator: 'eq', value: 'a' } } as const;
  const pick = (r: Awaited<ReturnType<typeof evaluateInputs>>) => ({
    total: r.total,
    matched: r.matched,
    malformed: r.malformed,
    lines: r.malformedLines,
    errors: r.errors.map((e) => e.file),
  });

  it('are counted exactly as whole files and as the main thread counts them, damaged ones with the same error', async () => {
    const names = ['a.log.gz', 'b.log.gz', 'cut.log.gz', 'junk.log.gz', 'c.log.gz'];
    const members = [text(12_000, 5), text(9_000, 6)];
    write(dir, names[0]!, Buffer.concat(members.map((m) => zlib.gzipSync(m))));
    write(dir, names[1]!, zlib.gzipSync(text(15_000, 7), { level: 1 }));
    const cut = zlib.gzipSync(text(10_000, 8));
    write(dir, names[2]!, cut.subarray(0, cut.length - 1000));
    write(dir, names[3]!, Buffer.concat([zlib.gzipSync(text(8_000, 9)), Buffer.from('not gzip')]));
    write(dir, names[4]!, zlib.gzipSync(text(100, 10)));
    const inputs = names.map((n) => ({ name: n, path: path.join(dir, n) }));
    const chunked = await evaluateInputs(FILTER as never, inputs, { workerScript: script, workers: 2, wholeFileBytes: 4096, validate: true });
    const whole = await evaluateInputs(FILTER as never, inputs, { workerScript: script, workers: 2, validate: true });
    const main = await evaluateInputs(FILTER as never, inputs, { workers: 0, validate: true });
    expect(chunked.workers).toBe(2);
    expect(pick(chunked)).toEqual(pick(whole));
    expect(pick(chunked)).toEqual(pick(main));
    expect(pick(chunked).errors).toEqual(['cut.log.gz', 'junk.log.gz']);
    expect(chunked.total).toBeGreaterThan(50_000);
  }, 120_000);

  it('inflated a chunk at a time into the scan buffer: lines cut by chunks, lines too long to hold, CRLF and a last line without its newline count as on the main thread', async () => {
    // Chunks of 16 KB and a 40 KB line limit: lines of 60-300 KB are too long and span several chunks (skipped
    // while inflating), others end exactly at or just after a chunk's end.
    const lines: string[] = [];
    for (let i = 0; i < 4000; i++) {
      if (i % 331 === 17) lines.push(JSON.stringify({ h: 'a', i, pad: 'z'.repeat(60_000 + ((i * 7919) % 240_000)) }));
      else if (i % 97 === 3) lines.push('');
      else if (i % 89 === 5) lines.push('{"h":"a",');
      else lines.push(JSON.stringify({ h: i % 3 ? 'b' : 'a', i, pad: 'y'.repeat((i * 131) % 3000) }) + (i % 7 === 0 ? '\r' : ''));
    }
    const body = lines.join('\n');
    const tooLongLast = JSON.stringify({ h: 'a', pad: 'w'.repeat(100_000) });
    write(dir, 'region-a.log.gz', Buffer.concat([zlib.gzipSync(body.slice(0, 200_000)), zlib.gzipSync(body.slice(200_000))])); // no final newline
    write(dir, 'region-b.log.gz', zlib.gzipSync(`${body}\n${tooLongLast}`)); // ends in a too-long line without its newline
    write(dir, 'region-c.log.gz', zlib.gzipSync(`${body}\n`, { level: 1 }));
    const inputs = ['region-a.log.gz', 'region-b.log.gz', 'region-c.log.gz'].map((n) => ({ name: n, path: path.join(dir, n) }));
    const options = { maxLineBytes: 40_000, validate: true };
    const chunked = await evaluateInputs(FILTER as never, inputs, { ...options, workerScript: script, workers: 1, wholeFileBytes: 4096, chunkBytes: 16 << 10 });
    const main = await evaluateInputs(FILTER as never, inputs, { ...options, workers: 0 });
    expect(chunked.workers).toBe(1);
    expect(pick(chunked)).toEqual(pick(main));
    expect(chunked.errors).toEqual([]);
    expect(chunked.bytes).toBe(main.bytes);
    // Every too-long line (13 per copy of the body, one more at the end of b) and every cut line is malformed.
    expect(chunked.malformed).toBeGreaterThanOrEqual(3 * 13 + 1 + 3 * 44);
  }, 120_000);

  it('count each line once in --explain, a damaged file read again after its chunks failed included', async () => {
    const cut = zlib.gzipSync(text(10_000, 11));
    write(dir, 'explain-cut.log.gz', cut.subarray(0, cut.length - 1000));
    write(dir, 'explain-ok.log.gz', zlib.gzipSync(text(6_000, 12)));
    const inputs = ['explain-cut.log.gz', 'explain-ok.log.gz'].map((n) => ({ name: n, path: path.join(dir, n) }));
    const chunked = await evaluateInputs(FILTER as never, inputs, { workerScript: script, workers: 2, wholeFileBytes: 4096, explain: true });
    const main = await evaluateInputs(FILTER as never, inputs, { workers: 0, explain: true });
    expect(chunked.workers).toBe(2);
    expect(pick(chunked)).toEqual(pick(main));
    expect(chunked.explain).toEqual(main.explain);
  }, 120_000);
});
