/**
 * Gzip inputs of `eval`: gzip is recognised by its magic bytes whatever the file is
 * called, and a file with trailing junk after its valid members counts every line `gzip -dc` yields, then
 * reports the junk as an input error (exit 2) naming the file. Checked on the main thread and in workers, for
 * files and for standard input (a stream cannot be read again: it is read member by member from the start,
 * and the junk is reported with its byte offset in the stream).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateInputs } from '../../src/eval/index.js';
import { gunzipStream, TrailingJunkError } from '../../src/eval/gzip-members.js';
import { buildWorkerScript, logfilter, tempDir, write } from './support.js';

let dir: string;
let script: string;
const FILTER = { where: { key: 'h', operator: 'eq', value: 'a' } } as const;

/** n lines, every other one h=a (so matched = ceil(n / 2)). */
const text = (n: number, seed = 0) => Array.from({ length: n }, (_, i) => JSON.stringify({ h: (i + seed) % 2 ? 'b' : 'a', i, pad: 'x'.repeat(i % 30) })).join('\n') + '\n';
const matchedOf = (n: number, seed = 0) => Array.from({ length: n }, (_, i) => (i + seed) % 2 === 0).filter(Boolean).length;

beforeAll(async () => {
  dir = tempDir();
  script = await buildWorkerScript(dir);
  write(dir, 'filter.json', JSON.stringify(FILTER));
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const json = async (args: string[], stdin?: Buffer) => {
  const r = await logfilter(args, { cwd: dir, ...(stdin ? { stdin } : {}) });
  return { code: r.code, out: r.stdout ? JSON.parse(r.stdout) : undefined, stderr: r.stderr };
};

/** What `gzip -dc` yields from the file, when gzip is installed (it then also checks our fixtures). */
function gzipLines(file: string): number | undefined {
  const r = spawnSync('gzip', ['-dc', file], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
  if (r.error || !r.stdout) return undefined;
  return r.stdout.toString('utf8').split('\n').length - 1;
}

describe('gzip with trailing junk (item 12)', () => {
  const cases = [
    { name: 'small.ndjson.gz', members: [text(1000)], junk: Buffer.from('junk') },
    { name: 'large.ndjson.gz', members: [text(200_000)], junk: Buffer.from([1, 2, 3, 4]) },
    { name: 'two.ndjson.gz', members: [text(300), text(500, 1)], junk: Buffer.from('\x1fX garbage') },
  ];
  beforeAll(() => {
    for (const c of cases) write(dir, c.name, Buffer.concat([...c.members.map((m) => zlib.gzipSync(m)), c.junk]));
  });

  for (const c of cases) {
    const lines = c.members.reduce((n, m) => n + m.split('\n').length - 1, 0);
    const matched = c.members.reduce((n, m, i) => n + matchedOf(m.split('\n').length - 1, i), 0);
    it(`${c.name}: every line gzip -dc yields is counted, then the junk is an error (main thread and workers)`, async () => {
      const g = gzipLines(path.join(dir, c.name));
      if (g !== undefined) expect(g).toBe(lines);
      for (const workers of ['0', '2']) {
        const r = await json(['eval', 'filter.json', c.name, '--json', '--workers', workers]);
        expect(r.code).toBe(2);
        expect(r.out).toMatchObject({ total: lines, matched, malformed: 0 });
        expect(r.out.errors).toEqual([{ file: c.name, message: expect.stringContaining(c.name) }]);
        expect(r.stderr).not.toMatch(/\n\s+at /);
      }
    }, 60_000);
  }

  // standard input and pipes cannot be read again: they are read member by member from the start
  for (const c of cases) {
    const lines = c.members.reduce((n, m) => n + m.split('\n').length - 1, 0);
    const matched = c.members.reduce((n, m, i) => n + matchedOf(m.split('\n').length - 1, i), 0);
    const junkAt = c.members.reduce((n, m) => n + zlib.gzipSync(m).length, 0);
    it(`${c.name} on standard input: every line counted, then the junk is an error with its byte offset`, async () => {
      const bytes = fs.readFileSync(path.join(dir, c.name));
      for (const workers of ['0', '2']) {
        const r = await json(['eval', 'filter.json', '-', '--json', '--workers', workers], bytes);
        expect(r.code).toBe(2);
        expect(r.out).toMatchObject({ total: lines, matched, malformed: 0 });
        expect(r.out.errors).toEqual([{ file: '<stdin>', message: expect.stringContaining(`byte ${junkAt}`) }]);
        expect(r.stderr).not.toMatch(/\n\s+at /);
      }
    }, 60_000);
  }

  it('trailing zero bytes on standard input are not junk; damaged data is an error after the lines before it', async () => {
    const padded = await json(['eval', 'filter.json', '-', '--json'], Buffer.concat([zlib.gzipSync(text(100)), zlib.gzipSync(text(10)), Buffer.alloc(700)]));
    expect(padded.code).toBe(0);
    expect(padded.out).toMatchObject({ total: 110, matched: 55 });
    const good = zlib.gzipSync(text(100));
    const bad = zlib.gzipSync(text(100));
    bad.fill(0xff, 30, 60); // inside the deflate data
    const damaged = await json(['eval', 'filter.json', '-', '--json'], Buffer.concat([good, bad]));
    expect(damaged.code).toBe(2);
    expect(damaged.out.total).toBeGreaterThanOrEqual(100);
    expect(damaged.out.errors).toEqual([{ file: '<stdin>', message: expect.any(String) }]);
  }, 60_000);

  it('in the library, with a worker script', async () => {
    const c = cases[0]!;
    const r = await evaluateInputs(FILTER as never, [{ name: c.name, path: path.join(dir, c.name) }], { workerScript: script, workers: 2 });
    expect(r).toMatchObject({ total: 1000, matched: 500 });
    expect(r.errors).toHaveLength(1);
  });

  it('trailing zero bytes (padding) are not junk, as for gzip', async () => {
    write(dir, 'padded.gz', Buffer.concat([zlib.gzipSync(text(100)), Buffer.alloc(512)]));
    const r = await json(['eval', 'filter.json', 'padded.gz', '--json']);
    expect(r.code).toBe(0);
    expect(r.out).toMatchObject({ total: 100, matched: 50 });
    expect(r.out.errors ?? []).toEqual([]);
  });
});

describe('gzip by magic bytes, not by name (item 11)', () => {
  it('gzip content named .ndjson is read as gzip; a plain file named .gz is read as plain', async () => {
    write(dir, 'zipped.ndjson', zlib.gzipSync(text(40)));
    write(dir, 'plain.gz', text(60));
    for (const workers of ['0', '2']) {
      const r = await json(['eval', 'filter.json', 'zipped.ndjson', 'plain.gz', '--json', '--workers', workers]);
      expect(r.code).toBe(0);
      expect(r.out).toMatchObject({ total: 100, matched: 50, malformed: 0 });
      expect(r.out.errors ?? []).toEqual([]);
    }
  });
});

describe('gunzipStream: a gzip stream member by member, whatever the chunking', () => {
  /** The stream's bytes delivered in chunks of the given sizes (cycled). */
  async function* chunked(b: Buffer, sizes: number[]): AsyncGenerator<Uint8Array> {
    for (let p = 0, i = 0; p < b.length; i++) {
      const n = sizes[i % sizes.length]!;
      yield b.subarray(p, p + n);
      p += n;
    }
  }
  async function inflate(b: Buffer, sizes: number[]): Promise<{ text: string; error?: unknown }> {
    const out: Buffer[] = [];
    try {
      for await (const c of gunzipStream(chunked(b, sizes), { chunkSize: 1024 })) out.push(Buffer.from(c));
      return { text: Buffer.concat(out).toString() };
    } catch (error) {
      return { text: Buffer.concat(out).toString(), error };
    }
  }
  const parts = [text(50), '', text(3000, 1), 'x', text(7)];
  const members = parts.map((p) => zlib.gzipSync(p, { level: 1 }));
  // a member with a name, a comment and an extra field (header flags)
  const named = Buffer.from(zlib.gzipSync(text(20)));
  const flagged = Buffer.concat([named.subarray(0, 3), Buffer.from([0x1c]), named.subarray(4, 10), Buffer.from([3, 0, 1, 2, 3]), Buffer.from('name\0comment\0'), named.subarray(10)]);
  const whole = Buffer.concat([...members, flagged]);
  const expectedWhole = parts.join('') + text(20);
  const chunkings = [[1], [3, 1, 7], [9], [10], [11], [4096], [1 << 20], [17, 100000, 2]];

  for (const sizes of chunkings) {
    it(`chunks of ${sizes.join(',')} bytes: every member, then junk reported at its offset`, async () => {
      // one byte per chunk is one thread-pool round trip per byte: the long member is left out there
      const [all, expected] = sizes[0] === 1 ? [Buffer.concat([members[0]!, members[1]!, flagged]), parts[0]! + text(20)] : [whole, expectedWhole];
      expect(await inflate(all, sizes)).toEqual({ text: expected });
      const junk = await inflate(Buffer.concat([all, Buffer.from('\x1f\x8bnot gzip')]), sizes);
      expect(junk.text).toBe(expected);
      expect(junk.error).toBeInstanceOf(TrailingJunkError);
      expect((junk.error as TrailingJunkError).offset).toBe(all.length);
      expect(await inflate(Buffer.concat([all, Buffer.alloc(33)]), sizes)).toEqual({ text: expected });
    });
  }

  it('a stream cut short inside a member or its trailer is a zlib error after the content before it', async () => {
    const [all, expected] = [whole, expectedWhole];
    // a following member's header cut short is junk at its offset, as for files
    const header = await inflate(all.subarray(0, members[0]!.length + 5), [5, 64]);
    expect(header).toMatchObject({ text: parts[0], error: new TrailingJunkError(members[0]!.length) });
    for (const cut of [members[0]!.length + 15, all.length - 4, all.length - 1]) {
      const r = await inflate(all.subarray(0, cut), [5, 64]);
      expect((r.error as NodeJS.ErrnoException).code).toBe('Z_BUF_ERROR');
      expect(expected.startsWith(r.text)).toBe(true);
    }
    const first = await inflate(Buffer.from('not gzip at all'), [4]);
    expect((first.error as NodeJS.ErrnoException).code).toBe('Z_DATA_ERROR');
  });
});
