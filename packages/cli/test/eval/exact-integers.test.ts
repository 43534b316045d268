/**
 * `logfilter eval` compares integers beyond 2^53 exactly: nanosecond timestamps one apart are told
 * apart whether the filter is source or JSON, on every path (main thread, workers, --explain, --json).
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exactFilter } from '@logfilter/core';
import { evaluateFile } from '../../src/eval/index.js';
import { buildWorkerScript, logfilter, tempDir, write } from './support.js';

// one apart, and both round to the same double (1700000000123456768)
const LINES = ['{"t":1700000000123456789,"id":[1,9007199254740993]}', '{"t":1700000000123456790,"id":[9007199254740992]}', '{"t":"1700000000123456791"}'];

let dir: string;
beforeAll(() => {
  dir = tempDir();
  write(dir, 'l.ndjson', LINES.join('\n') + '\n');
});

const counts = async (filterFile: string, text: string, ...flags: string[]) => {
  write(dir, filterFile, text);
  const r = await logfilter(['eval', filterFile, 'l.ndjson', '--json', '--workers', '0', ...flags], { cwd: dir });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { total: number; matched: number; explain?: unknown };
};

describe('eval with integers beyond 2^53', () => {
  it('from a source filter', async () => {
    expect(await counts('a.logfilter', 'dataset any\nt == 1700000000123456790\n')).toMatchObject({ total: 3, matched: 1 });
    expect(await counts('b.logfilter', 'dataset any\nt < 1700000000123456790\n')).toMatchObject({ matched: 1 });
    expect(await counts('c.logfilter', 'dataset any\nt >= 1700000000123456790\n')).toMatchObject({ matched: 2 });
    expect(await counts('d.logfilter', 'dataset any\nt != 1700000000123456789\n')).toMatchObject({ matched: 2 });
  });

  it('from a JSON filter, with arrays and --explain', async () => {
    const f = (op: string, value: string) => `{"where":{"key":"id","operator":"${op}","value":${value}}}`;
    expect(await counts('e.json', f('contains', '9007199254740993'))).toMatchObject({ matched: 1 });
    expect(await counts('g.json', f('in', '[9007199254740992]'))).toMatchObject({ matched: 1 });
    const explained = await counts('h.json', '{"where":{"key":"t","operator":"in","value":[1700000000123456791,5]}}', '--explain');
    expect(explained).toMatchObject({ matched: 1, explain: { root: { held: 1 } } });
  });

  it('in worker threads too (the exact filter crosses to them)', async () => {
    const script = await buildWorkerScript(dir);
    const big = path.join(dir, 'big.ndjson');
    write(dir, 'big.ndjson', (LINES.join('\n') + '\n').repeat(2000));
    const filter = exactFilter('{"where":{"key":"t","operator":"eq","value":1700000000123456790}}');
    const r = await evaluateFile(filter, big, { workers: 2, workerScript: script, rangeBytes: 4096 });
    expect(r.workers).toBe(2);
    expect([r.total, r.matched]).toEqual([6000, 2000]);
  });
});
