/**
 * Inputs of `eval`: directories and globs, gzip across workers, pipes and
 * FIFOs read without seeking, long lines in linear time, one line-length limit in every mode, and an
 * unreadable or truncated input reported while the counts of the others are kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync, spawn } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { evaluateInputs, type EvalInput } from '../../src/eval/index.js';
import { lineBlocks } from '../../src/eval/line-blocks.js';
import type { EvalOptions } from '../../src/eval/types.js';
import { buildWorkerScript, logfilter, tempDir, write } from './support.js';

let dir: string;
let script: string;
const FILTER = { where: { and: [{ key: 'h', operator: 'eq', value: 'a' }, { key: 's', operator: 'geq', value: 500 }] } } as const;

/** n lines; every third has h=a, s alternates 200/500; every 50th is malformed. */
function lines(n: number, seed: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    if ((i + seed) % 50 === 0) out.push('{"h":"a","s":');
    else out.push(JSON.stringify({ h: ['a', 'b', 'c'][(i + seed) % 3], s: (i + seed) % 2 ? 500 : 200, t: 'x'.repeat((i * 7) % 40) }));
  }
  return out;
}
const expected = (ls: string[]) => {
  let matched = 0;
  let malformed = 0;
  for (const l of ls) {
    try {
      const o = JSON.parse(l);
      if (o.h === 'a' && o.s >= 500) matched++;
    } catch {
      malformed++;
    }
  }
  return { total: ls.length, matched, malformed };
};

beforeAll(async () => {
  dir = tempDir();
  script = await buildWorkerScript(dir);
  write(dir, 'filter.json', JSON.stringify(FILTER));
  // Shaped like log export output: <YYYYMMDD>/<start>_<end>_<hash>.log.gz, plus files to skip.
  fs.mkdirSync(path.join(dir, 'logs/20250506'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'logs/20250507'), { recursive: true });
  for (let i = 0; i < 6; i++) {
    const day = i < 3 ? '20250506' : '20250507';
    write(dir, `logs/${day}/20250506T12${i}000Z_20250506T12${i}500Z_${i}abc.log.gz`, zlib.gzipSync(lines(300, i).join('\n') + '\n'));
  }
  write(dir, 'logs/.hidden', 'not a log line\n');
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const all = () => Array.from({ length: 6 }, (_, i) => lines(300, i)).flat();
const json = async (args: string[], stdin?: string | Buffer) => {
  const r = await logfilter(args, { cwd: dir, ...(stdin !== undefined ? { stdin } : {}) });
  return { code: r.code, out: r.stdout ? JSON.parse(r.stdout) : undefined, stderr: r.stderr };
};

describe('eval inputs', () => {
  it('reads a directory (recursively, sorted, hidden files skipped) and a quoted glob', async () => {
    const want = expected(all());
    const d = await json(['eval', 'filter.json', 'logs', '--json', '--validate']);
    expect(d.code).toBe(0);
    expect(d.out).toMatchObject(want);
    expect(d.out.malformedLines[0].file).toBe(path.join('logs', '20250506', '20250506T120000Z_20250506T120500Z_0abc.log.gz'));
    const g = await json(['eval', 'filter.json', 'logs/*/*.log.gz', '--json', '--validate']);
    expect(g.out).toMatchObject(want);
    const one = await json(['eval', 'filter.json', 'logs/20250507/*.log.gz', '--json', '--validate']);
    expect(one.out.total).toBe(900);
  });

  it('a pattern that matches nothing is an I/O error (exit 2) and the other inputs still count', async () => {
    const r = await json(['eval', 'filter.json', 'logs', 'nothing/*.gz', '--json']);
    expect(r.code).toBe(2);
    expect(r.out.total).toBe(1800);
    expect(r.out.errors).toEqual([{ file: 'nothing/*.gz', message: expect.any(String) }]);
  });

  it('gives the same counts, line numbers and explain data with whole gzip files in workers', async () => {
    const inputs: EvalInput[] = fs
      .readdirSync(path.join(dir, 'logs/20250506'))
      .map((f) => ({ name: f, path: path.join(dir, 'logs/20250506', f) }));
    const run = (o: EvalOptions) => evaluateInputs(FILTER as never, inputs, { workerScript: script, ...o });
    for (const mode of [{}, { validate: true }, { explain: true }]) {
      const [main, par] = await Promise.all([run({ ...mode, workers: 0 }), run({ ...mode, workers: 2 })]);
      expect(par.workers).toBe(2);
      expect(main.workers).toBe(0);
      const { seconds: _a, workers: _b, ...m } = main;
      const { seconds: _c, workers: _d, ...p } = par;
      expect(p).toEqual(m);
    }
  });

  it('keeps the counts of the other files and of the part read when a .gz is cut short (exit 2, file named)', async () => {
    const good = lines(200, 1);
    const cut = lines(4000, 2);
    const gz = zlib.gzipSync(cut.join('\n') + '\n');
    write(dir, 'good.ndjson.gz', zlib.gzipSync(good.join('\n') + '\n'));
    write(dir, 'cut.ndjson.gz', gz.subarray(0, Math.floor(gz.length / 2)));
    write(dir, 'after.ndjson', good.join('\n') + '\n');
    for (const workers of ['0', '2']) {
      const r = await logfilter(['eval', 'filter.json', 'good.ndjson.gz', 'cut.ndjson.gz', 'after.ndjson', '--json', '--validate', '--workers', workers], { cwd: dir });
      expect(r.code).toBe(2);
      const out = JSON.parse(r.stdout);
      expect(out.errors).toEqual([{ file: 'cut.ndjson.gz', message: expect.stringContaining('cut.ndjson.gz') }]);
      // Both whole files counted, and some (not all) of the cut one.
      expect(out.total).toBeGreaterThan(400);
      expect(out.total).toBeLessThan(4400);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('reads a FIFO (plain and gzip) without seeking', async () => {
    const fifo = path.join(dir, 'pipe');
    const ls = lines(500, 3);
    for (const content of [Buffer.from(ls.join('\n') + '\n'), zlib.gzipSync(ls.join('\n') + '\n')]) {
      fs.rmSync(fifo, { force: true });
      execFileSync('mkfifo', [fifo]);
      // A writer process feeds the FIFO a byte first, then the rest (a pipe may deliver 1 byte at a time).
      const writer = spawn(process.execPath, ['-e', `const fs=require('fs');const b=Buffer.from(process.argv[1],'base64');const fd=fs.openSync(process.argv[2],'w');fs.writeSync(fd,b.subarray(0,1));setTimeout(()=>{fs.writeSync(fd,b.subarray(1));fs.closeSync(fd)},50)`, content.toString('base64'), fifo]);
      const closed = new Promise((resolve) => writer.on('close', resolve));
      const r = await json(['eval', 'filter.json', 'pipe', '--json', '--validate']);
      await closed;
      expect(r.code).toBe(0);
      expect(r.out).toMatchObject(expected(ls));
    }
  });

  it('holds a long line in linear time: its chunks are joined once, not once per chunk', async () => {
    const line = `{"h":"a","s":500,"pad":"${'y'.repeat(8 << 20)}"}`;
    const bytes = Buffer.from(`${line}\n{"h":"b"}\n`);
    async function* chunks() {
      for (let i = 0; i < bytes.length; i += 16384) yield bytes.subarray(i, i + 16384);
    }
    const concat = vi.spyOn(Buffer, 'concat');
    let blocks = 0;
    for await (const b of lineBlocks(chunks())) if (b.kind === 'block') blocks += b.buf.length;
    const copied = concat.mock.results.reduce((n, r) => n + (r.value as Buffer).length, 0);
    concat.mockRestore();
    expect(blocks).toBe(bytes.length);
    expect(copied).toBeLessThan(2 * bytes.length);
  });

  it('a line over the limit is one malformed line with and without workers, gzip and stdin alike', async () => {
    const long = `{"h":"a","s":500,"pad":"${'z'.repeat(3000)}"}`;
    const ls = [...lines(40, 4).slice(0, 20), long, ...lines(40, 4).slice(20), long];
    write(dir, 'long.ndjson', ls.join('\n') + '\n');
    write(dir, 'long.ndjson.gz', zlib.gzipSync(ls.join('\n') + '\n'));
    const base = expected(ls.filter((l) => l !== long));
    const want = { total: base.total + 2, matched: base.matched, malformed: base.malformed + 2 };
    const results = [];
    // Chunks smaller than a line, than the limit, and than a range: a long line spans chunks and ranges.
    const shapes = [{ workers: 0 }, { workers: 2, rangeBytes: 256 }, { workers: 2, rangeBytes: 4096 }, { workers: 2, rangeBytes: 100_000 }];
    const chunked = [{ workers: 0, chunkBytes: 100 }, { workers: 2, rangeBytes: 4096, chunkBytes: 700 }, { workers: 1, rangeBytes: 100_000, chunkBytes: 1500 }];
    for (const o of [...shapes, ...chunked]) {
      for (const file of ['long.ndjson', 'long.ndjson.gz']) {
        const r = await evaluateInputs(FILTER as never, [{ name: file, path: path.join(dir, file) }], { ...o, validate: true, workerScript: script, maxLineBytes: 1000 });
        results.push(r);
      }
    }
    const stdin = await evaluateInputs(FILTER as never, [{ name: '<stdin>', stream: [Buffer.from(ls.join('\n') + '\n')] as never }], { validate: true, maxLineBytes: 1000 } as never);
    results.push(stdin);
    for (const r of results) {
      expect({ total: r.total, matched: r.matched, malformed: r.malformed }).toEqual(want);
      expect(r.malformedLines.map((m) => m.line)).toEqual(results[0]!.malformedLines.map((m) => m.line));
    }
    expect(results[0]!.malformedLines.map((m) => m.line)).toContain(21);
  });
});
