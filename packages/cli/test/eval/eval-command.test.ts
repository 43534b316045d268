import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logfilter, tempDir, write } from './support.js';

let dir: string;
const HOST = JSON.stringify({ where: { key: 'ClientRequestHost', operator: 'eq', value: 'a.example.com' } });
const AND = JSON.stringify({
  where: { and: [{ key: 'ClientRequestHost', operator: 'eq', value: 'a.example.com' }, { key: 'EdgeResponseStatus', operator: 'geq', value: 500 }] },
});
const line = (host: string, status: number, extra = '') => `{"ClientRequestHost":"${host}","EdgeResponseStatus":${status}${extra}}`;

beforeAll(() => {
  dir = tempDir();
  write(dir, 'host.json', HOST);
  write(dir, 'and.json', AND);
  write(dir, 'host.logfilter', 'dataset http_requests\nClientRequestHost == "a.example.com"\n');
  write(dir, 'broken.logfilter', 'ClientRequestHost == \n');
  write(dir, 'job.json', JSON.stringify({ id: 1, dataset: 'http_requests', filter: AND }));
  write(
    dir,
    'logs.ndjson',
    [
      line('a.example.com', 200), // 1 match host
      '', // 2 blank
      line('b.example.com', 500), // 3
      line('a.example.com', 503), // 4 match host and and
      '{"ClientRequestHost":"a.example.com"', // 5 truncated
      '[1,2]', // 6 not an object
      '   ', // 7 blank
      line('a\\u002eexample.com', 502) + '\r', // 8 escaped, CRLF: match both
      '"a.example.com"', // 9 a string, not an object
      line('c.example.com', 200, ',"x":"{\\"ClientRequestHost\\":\\"a.example.com\\"}"'), // 10 needle elsewhere
    ].join('\n') + '\n',
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const json = async (args: string[], stdin?: string | Buffer) => {
  const r = await logfilter([...args, '--json'], { cwd: dir, stdin });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

describe('logfilter eval', () => {
  it('counts lines, matches and malformed lines (blank lines skipped, CRLF and escapes handled)', async () => {
    const r = await json(['eval', 'host.json', 'logs.ndjson', '--validate']);
    expect(r).toMatchObject({ total: 8, matched: 3, malformed: 3 });
    expect(r.malformedLines.map((m: { line: number }) => m.line)).toEqual([5, 6, 9]);
    const and = await json(['eval', 'and.json', 'logs.ndjson', '--validate']);
    expect(and).toMatchObject({ total: 8, matched: 2, malformed: 3 });
  });

  it('gives exact total and matched without --validate, and never more malformed lines than exist', async () => {
    const r = await json(['eval', 'and.json', 'logs.ndjson']);
    expect(r.total).toBe(8);
    expect(r.matched).toBe(2);
    expect(r.malformed).toBeLessThanOrEqual(3);
    // The outline check still finds the truncated line and the non-objects.
    expect(r.malformed).toBeGreaterThanOrEqual(2);
  });

  it('reads .logfilter sources and every JSON form decompile accepts', async () => {
    expect((await json(['eval', 'host.logfilter', 'logs.ndjson'])).matched).toBe(3);
    expect((await json(['eval', 'job.json', 'logs.ndjson'])).matched).toBe(2);
    write(dir, 'string.json', JSON.stringify(HOST));
    expect((await json(['eval', 'string.json', 'logs.ndjson'])).matched).toBe(3);
  });

  it('prints the matching lines unchanged, in order, and --invert the others', async () => {
    const text = fs.readFileSync(path.join(dir, 'logs.ndjson'), 'utf8').split('\n');
    const r = await logfilter(['eval', 'and.json', 'logs.ndjson', '--print'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe([text[3], text[7]].join('\n') + '\n');
    const inv = await logfilter(['eval', 'and.json', 'logs.ndjson', '--invert'], { cwd: dir });
    expect(inv.stdout).toBe([text[0], text[2], text[4], text[5], text[8], text[9]].join('\n') + '\n');
  });

  it('explains per condition and group with stable ids', async () => {
    const r = await json(['eval', 'and.json', 'logs.ndjson', '--explain']);
    const root = r.explain.root;
    expect(root).toMatchObject({ id: '/where', kind: 'and', evaluated: 5, held: 2 });
    expect(root.children.map((c: { id: string; held: number; rejected: number }) => [c.id, c.held, c.rejected])).toEqual([
      ['/where/and/0', 3, 2],
      ['/where/and/1', 3, 2],
    ]);
    expect(r.explain.mostRejecting).toEqual({ id: '/where/and/0', rejected: 2 });
    // --explain implies validation: malformed is exact.
    expect(r).toMatchObject({ malformed: 3, malformedExact: true });
    const tree = await logfilter(['eval', 'and.json', 'logs.ndjson', '--explain'], { cwd: dir });
    expect(tree.code).toBe(0);
    expect(tree.stdout).toContain('/where/and/1');
  });

  it('reads standard input and gzip files', async () => {
    const logs = fs.readFileSync(path.join(dir, 'logs.ndjson'));
    expect((await json(['eval', 'host.json', '-', '--validate'], logs)).matched).toBe(3);
    // Without LOGS, piped standard input is read; gzip is recognised there too.
    expect((await json(['eval', 'host.json', '--validate'], zlib.gzipSync(logs))).matched).toBe(3);
    write(dir, 'logs.ndjson.gz', zlib.gzipSync(logs));
    expect(await json(['eval', 'host.json', 'logs.ndjson.gz', '--validate'])).toMatchObject({ total: 8, matched: 3, malformed: 3 });
    // Two inputs are one run; line numbers stay per file.
    const both = await json(['eval', 'host.json', 'logs.ndjson', 'logs.ndjson.gz', '--validate']);
    expect(both).toMatchObject({ total: 16, matched: 6, malformed: 6 });
    expect(both.malformedLines.map((m: { file: string; line: number }) => `${m.file}:${m.line}`)).toContain('logs.ndjson.gz:9');
  });

  it('handles an empty file, invalid UTF-8, and a 10 MB single line', async () => {
    write(dir, 'empty.ndjson', '');
    expect(await json(['eval', 'host.json', 'empty.ndjson'])).toMatchObject({ total: 0, matched: 0, malformed: 0 });
    const bad = Buffer.concat([Buffer.from('{"ClientRequestHost":"a.example.com","x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n'), Buffer.from(line('a.example.com', 1) + '\n')]);
    write(dir, 'bad-utf8.ndjson', bad);
    expect(await json(['eval', 'host.json', 'bad-utf8.ndjson'])).toMatchObject({ total: 2, matched: 1, malformed: 1 });
    const big = line('a.example.com', 500, `,"pad":"${'x'.repeat(10 * 1024 * 1024)}"`);
    write(dir, 'big.ndjson', `${big}\n${big.slice(0, 5_000_000)}\n`);
    expect(await json(['eval', 'and.json', 'big.ndjson'])).toMatchObject({ total: 2, matched: 1, malformed: 1 });
  }, 120_000);

  it('draws a progress bar on a terminal for a large input, and not with --no-progress or off a terminal', async () => {
    const row = line('b.example.com', 200, `,"pad":"${'p'.repeat(1000)}"`);
    write(dir, 'large.ndjson', `${row}\n`.repeat(17_000));
    const bar = (r: { stderr: string }) => r.stderr.includes('eval [');
    const shown = await logfilter(['eval', 'host.json', 'large.ndjson'], { cwd: dir, ttyStderr: true });
    expect(shown.code).toBe(0);
    expect(bar(shown)).toBe(true);
    expect(bar(await logfilter(['eval', 'host.json', 'large.ndjson', '--no-progress'], { cwd: dir, ttyStderr: true }))).toBe(false);
    expect(bar(await logfilter(['eval', 'host.json', 'large.ndjson'], { cwd: dir }))).toBe(false);
  });

  it('warns about fields the filter reads that no line carried', async () => {
    write(dir, 'missing.json', JSON.stringify({ where: { or: [{ key: 'ClientRequestHost', operator: 'eq', value: 'x' }, { key: 'NoSuchField', operator: '!eq', value: 'y' }] } }));
    expect((await json(['eval', 'missing.json', 'logs.ndjson'])).missingFields).toEqual(['NoSuchField']);
    const r = await logfilter(['eval', 'missing.json', 'logs.ndjson'], { cwd: dir });
    expect(r.stderr).toContain('NoSuchField');
  });

  it('stops at the first malformed line with --strict (exit 2)', async () => {
    const r = await logfilter(['eval', 'host.json', 'logs.ndjson', '--strict', '--json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ stoppedAt: { file: 'logs.ndjson', line: 5 }, total: 4, matched: 2, malformed: 1 });
  });

  it('exits 1 on filter errors and 2 on usage and I/O errors', async () => {
    expect((await logfilter(['eval', 'broken.logfilter', 'logs.ndjson'], { cwd: dir })).code).toBe(1);
    expect((await logfilter(['eval', 'host.json', 'nope.ndjson'], { cwd: dir })).code).toBe(2);
    expect((await logfilter(['eval', 'nope.json', 'logs.ndjson'], { cwd: dir })).code).toBe(2);
    expect((await logfilter(['eval'], { cwd: dir })).code).toBe(2);
    expect((await logfilter(['eval', 'host.json', 'logs.ndjson', '--json', '--print'], { cwd: dir })).code).toBe(2);
    expect((await logfilter(['eval', 'host.json', '-', '-'], { cwd: dir, stdin: '' })).code).toBe(2);
    write(dir, 'not-gzip.gz', Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    const r = await logfilter(['eval', 'host.json', 'not-gzip.gz'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
