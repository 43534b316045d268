/**
 * Gzip inputs of `eval`: gzip is recognised by its magic bytes whatever the file is
 * called, and a file with trailing junk after its valid members counts every line `gzip -dc` yields, then
 * reports the junk as an input error (exit 2) naming the file. Checked on the main thread and in workers
 * (standard input and FIFOs, which cannot be read again, still stop at the junk with the lines read so far).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateInputs } from '../../src/eval/index.js';
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
