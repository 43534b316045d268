/**
 * A line of only white space that JSON does not allow (a form feed \f or a vertical tab \v, alone or with spaces,
 * tabs and carriage returns) is malformed for the built-in evaluator, and DuckDB skips it as blank: the DuckDB
 * engine counts and locates such lines as the evaluator does (total, malformed, their places), plain and gzip, in
 * one chunk or across the edge of two; a blank line of spaces, tabs and \r stays skipped by both.
 */
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { logfilter, tempDir, write } from './eval/support.js';
import { countControlBlankLines } from '../src/eval/control-blank-lines.js';

const LINES = ['{"ClientCountry":"us"}', '\f', '{"ClientCountry":"ca"}', ' \v\t', '', ' \t\r', '{"ClientCountry":"us"}', '\f\v', '{"ClientCountry":"us","x":"\\f"}'];

describe('lines of \\f or \\v only', { timeout: 120_000 }, () => {
  it('are counted and located by --engine duckdb as by the built-in evaluator', async () => {
    const dir = tempDir();
    write(dir, 'f.logfilter', 'ClientCountry == "us"\n');
    write(dir, 'p.ndjson', LINES.join('\n') + '\n');
    write(dir, 'g.ndjson.gz', zlib.gzipSync(LINES.join('\n')));
    for (const files of [['p.ndjson'], ['g.ndjson.gz'], ['p.ndjson', 'g.ndjson.gz']]) {
      const builtIn = await logfilter(['eval', 'f.logfilter', ...files, '--json', '--validate'], { cwd: dir });
      const duck = await logfilter(['eval', 'f.logfilter', ...files, '--json', '--engine', 'duckdb'], { cwd: dir });
      expect([builtIn.code, duck.code]).toEqual([0, 0]);
      const a = JSON.parse(builtIn.stdout);
      const b = JSON.parse(duck.stdout);
      expect([b.total, b.matched, b.malformed]).toEqual([a.total, a.matched, a.malformed]);
      expect(b.malformedLines).toEqual(a.malformedLines);
    }
    const one = JSON.parse((await logfilter(['eval', 'f.logfilter', 'p.ndjson', '--json', '--engine', 'duckdb'], { cwd: dir })).stdout);
    expect([one.total, one.matched, one.malformed, one.malformedLines.map((l: { line: number }) => l.line)]).toEqual([7, 3, 3, [2, 4, 8]]);
  });

  it('are found whatever the chunk edges', () => {
    const text = Buffer.from(LINES.join('\n'));
    for (let cut = 0; cut <= text.length; cut++) {
      expect(countControlBlankLines([text.subarray(0, cut), text.subarray(cut)])).toBe(3);
    }
    expect(countControlBlankLines([Buffer.from('{"a":1}\n \n\t\r\n')])).toBe(0);
    expect(countControlBlankLines([Buffer.from('\f')])).toBe(1);
    expect(countControlBlankLines([Buffer.from('x\f\n\fx\n')])).toBe(0);
  });
});
