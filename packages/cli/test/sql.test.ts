/** `logfilter compile --to sql`, `logfilter schema` and `logfilter eval --engine duckdb`, in-process. */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DuckDBInstance } from '@duckdb/node-api';
import { logfilter, tempDir, write } from './eval/support.js';
import { generators, SAFE } from '../../../test/engines/generators.js';

let dir: string;
const run = (...args: string[]) => logfilter(args, { cwd: dir });

beforeAll(() => {
  dir = tempDir();
  write(dir, 'f.logfilter', 'dataset http_requests\nEdgeResponseStatus >= 500 and ClientRequestHost != "a\'b"\n');
  write(dir, 'broken.logfilter', 'ClientRequestHst == "x"\n');
});

describe('compile --to sql', () => {
  it('prints the expression per dialect, and a whole query with --query', async () => {
    const duck = await run('compile', 'f.logfilter', '--to', 'sql', '--dialect', 'duckdb');
    expect(duck.code).toBe(0);
    expect(duck.stdout).toBe(`("EdgeResponseStatus" IS NOT NULL AND "EdgeResponseStatus" >= 500) AND ("ClientRequestHost" IS NULL OR NOT ("ClientRequestHost" = 'a''b'))\n`);
    const house = await run('compile', 'f.logfilter', '--to', 'sql', '--dialect', 'clickhouse');
    expect(house.stdout).toBe("(`EdgeResponseStatus` IS NOT NULL AND `EdgeResponseStatus` >= 500) AND (`ClientRequestHost` IS NULL OR NOT (`ClientRequestHost` = 'a\\'b'))\n");
    const q = await run('compile', 'f.logfilter', '--to', 'sql', '--dialect', 'clickhouse', '--query', '--from', 'logs');
    expect(q.stdout).toMatch(/^SELECT \* FROM `logs` WHERE \(`EdgeResponseStatus` IS NOT NULL/);
    expect(q.stdout.trimEnd().endsWith(';')).toBe(true);
  });

  it('takes a JSON filter in any form decompile accepts, integers exact, checked as check does', async () => {
    write(dir, 'job.json', JSON.stringify({ id: 1, filter: '{"where":{"key":"EdgeResponseStatus","operator":"gt","value":1700000000123456789}}' }));
    const r = await run('compile', 'job.json', '--to', 'sql', '--dialect', 'duckdb');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('("EdgeResponseStatus" IS NOT NULL AND "EdgeResponseStatus" > 1700000000123456789)\n');
    write(dir, 'bad.json', '{"where":{"key":"ClientRequestHst","operator":"eq","value":"a"}}');
    const bad = await run('compile', 'bad.json', '--to', 'sql', '--dialect', 'clickhouse', '--diagnostics', 'json');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect((JSON.parse(bad.stderr) as { code: string; range: { start: { column: number } } }[]).map((d) => [d.code, d.range.start.column])).toEqual([['unknown-field', 17]]);
  });

  it('exits 1 on filter errors and 2 on flag misuse', async () => {
    expect((await run('compile', 'broken.logfilter', '--to', 'sql', '--dialect', 'duckdb')).code).toBe(1);
    for (const args of [
      ['--to', 'sql'],
      ['--dialect', 'duckdb'],
      ['--to', 'sql', '--dialect', 'postgres'],
      ['--to', 'sql', '--dialect', 'duckdb', '--format', 'pretty'],
      ['--to', 'sql', '--dialect', 'duckdb', '--from', 'logs'],
      ['--query'],
      ['--to', 'yaml'],
    ]) {
      const r = await run('compile', 'f.logfilter', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
  });
});

describe('the README', () => {
  it('shows the ClickHouse expression the command prints', async () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
    const m = /For `([^`]+)` the ClickHouse expression is\n\n(?:<!--[^\n]*-->\n)?```sql\n(.*)\n```/.exec(readme);
    expect(m).not.toBeNull();
    write(dir, 'readme.logfilter', `${m![1]}\n`);
    expect((await run('compile', 'readme.logfilter', '--to', 'sql', '--dialect', 'clickhouse')).stdout).toBe(`${m![2]}\n`);
  });
});

describe('schema', () => {
  it('prints the column definitions of a dataset for each engine', async () => {
    const d = await run('schema', '--dataset', 'dns_logs', '--dialect', 'duckdb', '--fields', 'QueryName, ResponseCode');
    expect(d.code).toBe(0);
    expect(d.stdout).toMatch(/^\{'QueryName': 'VARCHAR', 'ResponseCode': '[A-Z]+'\}\n$/);
    const c = await run('schema', '--dialect', 'clickhouse');
    expect(c.code).toBe(0);
    expect(c.stdout).toContain('`ClientRequestHost` Nullable(String), ');
    expect(c.stdout).toContain('`BotTags` Array(String)');
  });

  it('exits 2 naming an unknown field or dataset, or a missing dialect', async () => {
    const f = await run('schema', '--dialect', 'duckdb', '--fields', 'ClientRequestHst');
    expect(f.code).toBe(2);
    expect(f.stderr).toContain('ClientRequestHst');
    expect(f.stderr).toContain('ClientRequestHost');
    expect((await run('schema', '--dialect', 'duckdb', '--dataset', 'nope')).code).toBe(2);
    expect((await run('schema', '--dataset', 'dns_logs')).code).toBe(2);
    expect((await run('schema', '--dialect', 'duckdb', '--fields', 'a,,b')).code).toBe(2);
  });

  it('gives definitions DuckDB loads the corpus lines with', async () => {
    const cols = (await run('schema', '--dialect', 'duckdb')).stdout.trim();
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const file = path.resolve(__dirname, '../../../test/fixtures/corpus/http_requests_samples_converted.ndjson');
    const rows = (await conn.runAndReadAll(`SELECT count(*) FROM read_ndjson('${file}', columns=${cols})`)).getRows();
    expect(Number(rows[0]![0])).toBe(fs.readFileSync(file, 'utf8').trim().split('\n').length);
    conn.closeSync();
    db.closeSync();
  });
});

describe('keys SQL cannot name, and keys only a case apart', () => {
  const filter = (...keys: string[]) => JSON.stringify({ where: { and: keys.map((key, i) => ({ key, operator: 'eq', value: `v${i}` })) } });

  it('prints SQL for keys with a backquote or a line break, which the language source cannot spell', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      for (const key of ['a`b', 'a\nb']) {
        write(dir, 'odd.json', filter(key));
        for (const dialect of ['duckdb', 'clickhouse']) {
          const r = await run('compile', 'odd.json', '--to', 'sql', '--dialect', dialect, '--dataset', 'any');
          expect(r.code, r.stderr).toBe(0);
          expect(r.stdout.trim()).not.toBe('');
        }
        // The DuckDB expression reads that very column.
        const sql = (await run('compile', 'odd.json', '--to', 'sql', '--dialect', 'duckdb', '--dataset', 'any')).stdout.trim();
        const rows = (await conn.runAndReadAll(`SELECT ${sql} FROM (SELECT 'v0' AS "${key}" UNION ALL SELECT 'x')`)).getRows();
        expect(rows.map((r) => r[0])).toEqual([true, false]);
      }
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });

  it('refuses (exit 1, the input named, no stack) a key with NUL or a lone surrogate, and keys a case apart on DuckDB', async () => {
    const refused: [string, string, string][] = [
      [filter('a\u0000b'), 'duckdb', 'nul'],
      [filter('a\u0000b'), 'clickhouse', 'nul'],
      [filter('a\ud800b'), 'duckdb', 'surrogate'],
      [filter('a\ud800b'), 'clickhouse', 'surrogate'],
      [filter('A', 'a'), 'duckdb', 'case'],
    ];
    for (const [text, dialect, what] of refused) {
      write(dir, 'refused.json', text);
      const r = await run('compile', 'refused.json', '--to', 'sql', '--dialect', dialect, '--dataset', 'any');
      expect(r.code, `${what} on ${dialect}`).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('refused.json');
      expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
    }
    // The same refusal from source (keys a case apart can be written there).
    write(dir, 'case.logfilter', 'dataset any\nA == "y" and a == "x"\n');
    expect((await run('compile', 'case.logfilter', '--to', 'sql', '--dialect', 'duckdb')).code).toBe(1);
    // ClickHouse names are case-sensitive: it takes them.
    expect((await run('compile', 'case.logfilter', '--to', 'sql', '--dialect', 'clickhouse')).code).toBe(0);
  });

  it('eval --engine duckdb: keys a case apart and NUL keys are refused (exit 2), a number in a string field is a wrong-type error', async () => {
    write(dir, 'case.ndjson', '{"a":"x","A":"y"}\n');
    write(dir, 'nul.json', filter('a\u0000b'));
    for (const [f, logs] of [['case.logfilter', 'case.ndjson'], ['nul.json', 'case.ndjson']]) {
      const r = await run('eval', f!, logs!, '--engine', 'duckdb', '--json');
      expect(r.code, f).toBe(2);
      expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
    }
    // The built-in evaluator gives the language's answer.
    expect(JSON.parse((await run('eval', 'case.logfilter', 'case.ndjson', '--json')).stdout)).toMatchObject({ total: 1, matched: 1 });
    write(dir, 'host1.logfilter', 'ClientRequestHost startsWith "1"\n');
    write(dir, 'numhost.ndjson', '{"ClientRequestHost":10}\n{"ClientRequestHost":"1.example"}\n');
    expect(JSON.parse((await run('eval', 'host1.logfilter', 'numhost.ndjson', '--json')).stdout)).toMatchObject({ total: 2, matched: 1 });
    const r = await run('eval', 'host1.logfilter', 'numhost.ndjson', '--engine', 'duckdb', '--json');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('numhost.ndjson');
    expect(r.stderr).toContain('ClientRequestHost');
    // Strings only: the same file without the number counts as the built-in evaluator does.
    write(dir, 'strhost.ndjson', '{"ClientRequestHost":"10"}\n{"ClientRequestHost":"1.example"}\n{"ClientRequestHost":null}\n{}\n');
    const ok = await run('eval', 'host1.logfilter', 'strhost.ndjson', '--engine', 'duckdb', '--json');
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ total: 4, matched: 2 });
  });
});

describe('eval --engine duckdb: a key given twice in a line', () => {
  it('is refused (exit 2, file and field named) when the filter reads it: DuckDB reads the first value, the language (JSON.parse) the last', async () => {
    write(dir, 'dup.logfilter', 'ClientRequestHost == "a"\n');
    // the same count either way round would hide a wrong reading: only the first line holds "a" first
    write(dir, 'dup.ndjson', '{"ClientRequestHost":"a","ClientRequestHost":"b"}\n{"ClientRequestHost":"a"}\nnot json\n');
    expect(JSON.parse((await run('eval', 'dup.logfilter', 'dup.ndjson', '--json')).stdout)).toMatchObject({ total: 3, matched: 1 });
    const r = await run('eval', 'dup.logfilter', 'dup.ndjson', '--engine', 'duckdb', '--json');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('dup.ndjson');
    expect(r.stderr).toContain('ClientRequestHost');
    expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
    // A key the filter does not read may repeat: counted as the built-in evaluator counts.
    write(dir, 'dupother.ndjson', '{"ClientRequestHost":"a","x":1,"x":2}\n{"ClientRequestHost":"b","x":1,"x":2}\nnot json\n');
    const ok = await run('eval', 'dup.logfilter', 'dupother.ndjson', '--engine', 'duckdb', '--json');
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ total: 3, matched: 1, malformed: 1 });
  });
});

describe('eval --engine duckdb: values DuckDB would cast into another meaning', () => {
  it('reads int fields as the language does: " 30", "0x1E", "+30" are no number, 30.5 is not 30, "30" and 3e1 are', async () => {
    const values = ['30', '"30"', '3e1', '" 30"', '"0x1E"', '"+30"', '30.5', '"30.5"', '""', 'null', '31'];
    write(dir, 'ints.ndjson', values.map((v) => `{"EdgeResponseStatus":${v}}`).join('\n') + '\n{}\n');
    const filters = ['EdgeResponseStatus == 30', 'EdgeResponseStatus != 30', 'EdgeResponseStatus < 31', 'EdgeResponseStatus >= 30', 'EdgeResponseStatus in [30, 31]', 'EdgeResponseStatus not in [30]'];
    const got: string[] = [];
    const want: string[] = [];
    for (const [i, f] of filters.entries()) {
      write(dir, `ints${i}.logfilter`, `${f}\n`);
      const duck = await run('eval', `ints${i}.logfilter`, 'ints.ndjson', '--json', '--engine', 'duckdb');
      expect(duck.code, duck.stderr).toBe(0);
      got.push(`${f}: ${JSON.parse(duck.stdout).matched}`);
      want.push(`${f}: ${JSON.parse((await run('eval', `ints${i}.logfilter`, 'ints.ndjson', '--json')).stdout).matched}`);
    }
    expect(got).toEqual(want);
    // == holds for 30, "30" and 3e1; != for the 7 other present values, null and the absent field
    expect(want.slice(0, 2)).toEqual(['EdgeResponseStatus == 30: 3', 'EdgeResponseStatus != 30: 9']);
  });

  it('reads a field the dataset does not type (dataset any) as strings or numbers, as the built-in evaluator', async () => {
    write(dir, 'untyped.ndjson', '{"status":500}\n{"status":"500"}\n{"status":"5x"}\n{"status":500.5}\n{}\n');
    for (const [i, f] of ['status == 500', 'status startsWith "5"', 'status >= 500', 'status != "500"'].entries()) {
      write(dir, `untyped${i}.logfilter`, `dataset any\n${f}\n`);
      const want = JSON.parse((await run('eval', `untyped${i}.logfilter`, 'untyped.ndjson', '--json')).stdout);
      const r = await run('eval', `untyped${i}.logfilter`, 'untyped.ndjson', '--json', '--engine', 'duckdb');
      expect(r.code, `${f}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout).matched, f).toBe(want.matched);
    }
    // a boolean there is still refused
    write(dir, 'untypedbool.ndjson', '{"status":true}\n');
    expect((await run('eval', 'untyped0.logfilter', 'untypedbool.ndjson', '--json', '--engine', 'duckdb')).code).toBe(2);
  });

  it('refuses (exit 2, field named) a boolean in an int field, a non-boolean in a bool field, an element of another type in an array', async () => {
    const cases: [string, string][] = [
      ['EdgeResponseStatus == 1', '{"EdgeResponseStatus":true}'],
      ['WorkerSubrequest == true', '{"WorkerSubrequest":"true"}'],
      ['WorkerSubrequest == false', '{"WorkerSubrequest":0}'],
      ['SecurityRuleIDs contains "true"', '{"SecurityRuleIDs":["a",true]}'],
      ['BotDetectionIDs contains 30', '{"BotDetectionIDs":[30.5]}'],
      ['BotDetectionIDs contains 1', '{"BotDetectionIDs":[true]}'],
    ];
    for (const [i, [f, line]] of cases.entries()) {
      write(dir, `cast${i}.logfilter`, `${f}\n`);
      write(dir, `cast${i}.ndjson`, `${line}\n`);
      // the language's answer: no match
      expect(JSON.parse((await run('eval', `cast${i}.logfilter`, `cast${i}.ndjson`, '--json')).stdout)).toMatchObject({ total: 1, matched: 0 });
      const r = await run('eval', `cast${i}.logfilter`, `cast${i}.ndjson`, '--engine', 'duckdb', '--json');
      expect(r.code, `${f} on ${line}: ${r.stdout}`).toBe(2);
      expect(r.stderr).toContain(f.split(' ')[0]);
      expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
    }
    // well-typed values count as the built-in evaluator counts
    write(dir, 'typed.logfilter', 'WorkerSubrequest == true or SecurityRuleIDs contains "x" or BotDetectionIDs contains 7\n');
    write(dir, 'typed.ndjson', '{"WorkerSubrequest":true}\n{"WorkerSubrequest":false,"SecurityRuleIDs":["x",null]}\n{"SecurityRuleIDs":[]}\n{"BotDetectionIDs":[1,7]}\n{}\n');
    const ok = await run('eval', 'typed.logfilter', 'typed.ndjson', '--engine', 'duckdb', '--json');
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ total: 5, matched: 3, malformed: 0 });
  });
});

describe('eval --engine duckdb: lines only DuckDB reads as JSON', () => {
  it('counts NaN, Infinity and trailing commas malformed, as JSON.parse does, on the fast and the exact path', async () => {
    const lines = [
      '{"ClientRequestHost":"a","x":NaN}',
      '{"ClientRequestHost":"a","x":-Infinity}',
      '{"ClientRequestHost":"a",}',
      '{"ClientRequestHost":"a","y":[1, ]}',
      '{"ClientRequestHost":"a","z":"NaN, inf ,}"}',
      '{"ClientRequestHost":"a"}',
    ];
    write(dir, 'lenient.logfilter', 'ClientRequestHost == "a"\n');
    write(dir, 'lenient.ndjson', lines.join('\n') + '\n');
    fs.writeFileSync(path.join(dir, 'lenient.ndjson.gz'), zlib.gzipSync(lines.join('\n')));
    // with a line no reader takes, DuckDB's exact path
    write(dir, 'lenient-bad.ndjson', lines.join('\n') + '\nnot json\n');
    for (const [file, malformed] of [['lenient.ndjson', 4], ['lenient.ndjson.gz', 4], ['lenient-bad.ndjson', 5]] as const) {
      const builtIn = JSON.parse((await run('eval', 'lenient.logfilter', file, '--json', '--validate')).stdout);
      expect(builtIn).toMatchObject({ total: malformed + 2, matched: 2, malformed });
      const r = await run('eval', 'lenient.logfilter', file, '--json', '--engine', 'duckdb');
      expect(r.code, r.stderr).toBe(0);
      const duck = JSON.parse(r.stdout);
      expect([duck.total, duck.matched, duck.malformed], file).toEqual([builtIn.total, builtIn.matched, builtIn.malformed]);
      expect(duck.malformedLines).toEqual(builtIn.malformedLines);
    }
  });

  it('locates malformed lines as the built-in evaluator does: a \\r inside a line ends nothing, a line not UTF-8 is malformed', async () => {
    const text = Buffer.concat([
      Buffer.from('{"ClientRequestHost":"a",\r"b":2}\nnot json\n{"ClientRequestHost":"\u2028"}\n'),
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x0a]), // {"a":"\xff"}
      Buffer.from('[1]'),
    ]);
    fs.writeFileSync(path.join(dir, 'where.ndjson'), text);
    fs.writeFileSync(path.join(dir, 'where.ndjson.gz'), zlib.gzipSync(text));
    for (const file of ['where.ndjson', 'where.ndjson.gz']) {
      const builtIn = JSON.parse((await run('eval', 'lenient.logfilter', file, '--json', '--validate')).stdout);
      expect(builtIn.malformedLines).toEqual([2, 4, 5].map((line) => ({ file, line })));
      const r = await run('eval', 'lenient.logfilter', file, '--json', '--engine', 'duckdb');
      expect(r.code, r.stderr).toBe(0);
      const duck = JSON.parse(r.stdout);
      expect([duck.total, duck.matched, duck.malformed]).toEqual([builtIn.total, builtIn.matched, builtIn.malformed]);
      expect(duck.malformedLines).toEqual(builtIn.malformedLines);
    }
  });

  it('refuses (exit 2, file named) a line with an unpaired surrogate, which the language reads and DuckDB cannot', async () => {
    // paired, and a backslash before "ud800" (no escape): read by both
    const fine = ['{"ClientRequestHost":"a\\ud83d\\ude00"}', '{"ClientRequestHost":"\\\\ud800"}', '{"ClientRequestHost":"a"}'];
    write(dir, 'pairs.ndjson', fine.join('\n') + '\n');
    const ok = await run('eval', 'lenient.logfilter', 'pairs.ndjson', '--json', '--engine', 'duckdb');
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ total: 3, matched: 1, malformed: 0 });
    const lone = [...fine, '{"ClientRequestHost":"a\\ud800"}'];
    write(dir, 'lone.ndjson', lone.join('\n') + '\n');
    fs.writeFileSync(path.join(dir, 'lone.ndjson.gz'), zlib.gzipSync(lone.join('\n')));
    for (const file of ['lone.ndjson', 'lone.ndjson.gz']) {
      expect(JSON.parse((await run('eval', 'lenient.logfilter', file, '--json', '--validate')).stdout)).toMatchObject({ total: 4, matched: 1, malformed: 0 });
      const r = await run('eval', 'lenient.logfilter', file, '--json', '--engine', 'duckdb');
      expect(r.code, file).toBe(2);
      expect(r.stderr).toContain(file);
      expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
    }
  });
});

describe('eval --engine duckdb: damaged gzip', () => {
  it('names the file DuckDB could not read (junk after the last member, cut short), exit 2, no stack', async () => {
    const lines = '{"ClientRequestHost":"a"}\n'.repeat(50);
    write(dir, 'gz-ok.ndjson.gz', zlib.gzipSync(lines));
    write(dir, 'gz-junk.ndjson.gz', Buffer.concat([zlib.gzipSync(lines), Buffer.from('junk')]));
    const whole = zlib.gzipSync(lines);
    write(dir, 'gz-cut.ndjson.gz', whole.subarray(0, whole.length - 12));
    write(dir, 'gzf.logfilter', 'ClientRequestHost == "a"\n');
    for (const bad of ['gz-junk.ndjson.gz', 'gz-cut.ndjson.gz']) {
      const r = await run('eval', 'gzf.logfilter', 'gz-ok.ndjson.gz', bad, '--engine', 'duckdb', '--json');
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(bad);
      expect(r.stderr).not.toContain('gz-ok');
      expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
    }
    expect(JSON.parse((await run('eval', 'gzf.logfilter', 'gz-ok.ndjson.gz', '--engine', 'duckdb', '--json')).stdout)).toMatchObject({ total: 50, matched: 50 });
  });
  it('a gzip file cut short is an error, never a count of its first part (DuckDB reads such a file without a word)', async () => {
    let text = '';
    for (let i = 0; i < 3000; i++) text += `{"ClientRequestHost":"${i % 2 ? 'a' : 'b'}"}\n`;
    const whole = zlib.gzipSync(text);
    write(dir, 'gzf.logfilter', 'ClientRequestHost == "a"\n');
    const codes: string[] = [];
    for (const part of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8]) {
      write(dir, 'gz-short.ndjson.gz', whole.subarray(0, Math.floor(whole.length * part)));
      const r = await run('eval', 'gzf.logfilter', 'gz-short.ndjson.gz', '--engine', 'duckdb', '--json');
      codes.push(`${part}: ${r.code} ${r.stderr.includes('gz-short.ndjson.gz')}`);
    }
    expect(codes).toEqual([0.3, 0.4, 0.5, 0.6, 0.7, 0.8].map((p) => `${p}: 2 true`));
  });
});

describe('eval --engine duckdb: a double beside an integer beyond 2^53', () => {
  it('compares exactly, as the built-in evaluator: 1700000000123456789.0 is the double 1700000000123456768', async () => {
    write(dir, 'big.ndjson', [
      '{"EdgeStartTimestamp":1700000000123456789}',
      '{"EdgeStartTimestamp":1700000000123456789.0}',
      '{"EdgeStartTimestamp":"1700000000123456789.0"}',
      '{"EdgeStartTimestamp":1700000000123456768}',
      '{"EdgeStartTimestamp":1.7000000001234568e18}',
      '{"EdgeStartTimestamp":1700000000123456790}',
    ].join('\n') + '\n');
    const filters = [
      'EdgeStartTimestamp == 1700000000123456789',
      'EdgeStartTimestamp != 1700000000123456789',
      'EdgeStartTimestamp in [1700000000123456789, 5]',
      'EdgeStartTimestamp < 1700000000123456789',
      'EdgeStartTimestamp <= 1700000000123456789',
      'EdgeStartTimestamp > 1700000000123456789',
      'EdgeStartTimestamp >= 1700000000123456789',
      'EdgeStartTimestamp >= 1700000000123456780 and EdgeStartTimestamp <= 1700000000123456800',
    ];
    const got: string[] = [];
    const want: string[] = [];
    for (const [i, f] of filters.entries()) {
      write(dir, `big${i}.logfilter`, `${f}\n`);
      const builtIn = await run('eval', `big${i}.logfilter`, 'big.ndjson', '--json');
      const duck = await run('eval', `big${i}.logfilter`, 'big.ndjson', '--json', '--engine', 'duckdb');
      expect(duck.code, duck.stderr).toBe(0);
      want.push(`${f}: ${JSON.parse(builtIn.stdout).matched}`);
      got.push(`${f}: ${JSON.parse(duck.stdout).matched}`);
    }
    expect(got).toEqual(want);
    // the language's answer (docs/language.md, Numbers): the doubles are 1700000000123456768, never ...789
    expect(want[0]).toBe(`${filters[0]}: 1`);
    expect(want[3]).toBe(`${filters[3]}: 4`);
  });
});

describe('eval --engine duckdb', () => {
  let lines: string[];
  beforeAll(() => {
    const g = generators(SAFE);
    lines = fc.sample(g.logLine, { numRuns: 300, seed: 11 });
    const text = `${lines.slice(0, 150).join('\n')}\n\n${lines.slice(150).join('\n')}\n`;
    write(dir, 'logs.ndjson', text);
    fs.mkdirSync(path.join(dir, 'day/20240101'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'day/20240101/a.log.gz'), zlib.gzipSync(lines.slice(0, 100).join('\n') + '\n'));
    fs.writeFileSync(path.join(dir, 'day/20240101/b.log.gz'), zlib.gzipSync(lines.slice(100).join('\n') + '\nnot json\n'));
    write(dir, 'g.logfilter', 'ClientRequestHost contains "a" or (EdgeResponseStatus > 0 and not (BotTags in ["hit", "miss"]))\n');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('counts and prints exactly what the built-in evaluator does, on NDJSON, gzip, directories and globs', async () => {
    const builtin = await run('eval', 'g.logfilter', 'logs.ndjson', '--json', '--validate');
    const want = JSON.parse(builtin.stdout) as { total: number; matched: number };
    for (const input of ['logs.ndjson', 'day', 'day/*/*.gz']) {
      const r = await run('eval', 'g.logfilter', input, '--engine', 'duckdb', '--json');
      expect(r.code, r.stderr).toBe(0);
      const got = JSON.parse(r.stdout) as { total: number; matched: number; malformed: number; malformedLines: unknown[] };
      expect({ total: got.total - got.malformed, matched: got.matched }).toEqual({ total: want.total, matched: want.matched });
      expect(got.malformed).toBe(input === 'logs.ndjson' ? 0 : 1);
      // where it is, as the built-in evaluator says it
      expect(got.malformedLines).toEqual(input === 'logs.ndjson' ? [] : [{ file: 'day/20240101/b.log.gz', line: 201 }]);
    }
    const printed = await run('eval', 'g.logfilter', 'logs.ndjson', '--engine', 'duckdb', '--print');
    expect(printed.stdout).toBe((await run('eval', 'g.logfilter', 'logs.ndjson', '--print')).stdout);
    const inverted = await run('eval', 'g.logfilter', 'logs.ndjson', '--engine', 'duckdb', '--print', '--invert');
    expect(inverted.stdout).toBe((await run('eval', 'g.logfilter', 'logs.ndjson', '--print', '--invert')).stdout);
  });

  it('prints a matching line as DuckDB reads it: without the whitespace around the object and its \\r (the README says so)', async () => {
    write(dir, 'ws.ndjson', '  {"ClientRequestHost":"a.com"} \r\n{"ClientRequestHost":"a.com"}\t\n{"ClientRequestHost":"b.com"}\n');
    write(dir, 'ws.logfilter', 'ClientRequestHost == "a.com"\n');
    const duck = await run('eval', 'ws.logfilter', 'ws.ndjson', '--engine', 'duckdb', '--print');
    expect(duck.code, duck.stderr).toBe(0);
    expect(duck.stdout).toBe('{"ClientRequestHost":"a.com"}\n{"ClientRequestHost":"a.com"}\n');
    // the built-in evaluator prints them as they are
    expect((await run('eval', 'ws.logfilter', 'ws.ndjson', '--print')).stdout).toBe('  {"ClientRequestHost":"a.com"} \r\n{"ClientRequestHost":"a.com"}\t\n');
  });

  it('reads Parquet', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const cols = (await run('schema', '--dialect', 'duckdb', '--fields', 'ClientRequestHost,EdgeResponseStatus,BotTags')).stdout.trim();
    await conn.run(`COPY (SELECT * FROM read_ndjson('${path.join(dir, 'logs.ndjson')}', columns=${cols})) TO '${path.join(dir, 'logs.parquet')}' (FORMAT parquet)`);
    conn.closeSync();
    db.closeSync();
    const want = JSON.parse((await run('eval', 'g.logfilter', 'logs.ndjson', '--json')).stdout) as { total: number; matched: number };
    const got = JSON.parse((await run('eval', 'g.logfilter', 'logs.parquet', '--engine', 'duckdb', '--json')).stdout) as { total: number; matched: number };
    expect({ total: got.total, matched: got.matched }).toEqual({ total: want.total, matched: want.matched });
  });

  it('reads listed file names literally and knows gzip by its magic bytes, as the built-in engine does', async () => {
    const sub = path.join(dir, 'names');
    fs.mkdirSync(sub, { recursive: true });
    const one = (n: number) => lines.slice(n * 10, n * 10 + 10).join('\n') + '\n';
    // Names holding glob characters next to files they would match as patterns.
    fs.writeFileSync(path.join(sub, 'br[1].ndjson'), one(0));
    fs.writeFileSync(path.join(sub, 'br1.ndjson'), one(1));
    fs.writeFileSync(path.join(sub, 'st*.ndjson'), one(2));
    fs.writeFileSync(path.join(sub, 'stx.ndjson'), one(3));
    fs.writeFileSync(path.join(sub, 'q?.ndjson'), one(4));
    fs.writeFileSync(path.join(sub, 'qa.ndjson'), one(5));
    // Gzip content without a .gz name, plain content with one.
    fs.writeFileSync(path.join(sub, 'zipped.ndjson'), zlib.gzipSync(one(6)));
    fs.writeFileSync(path.join(sub, 'plain.ndjson.gz'), one(7));
    const args = ['names/br[1].ndjson', 'names/st*.ndjson', 'names/q?.ndjson', 'names/zipped.ndjson', 'names/plain.ndjson.gz'];
    const builtin = await run('eval', 'g.logfilter', ...args, '--json');
    expect(builtin.code, builtin.stderr).toBe(0);
    const want = JSON.parse(builtin.stdout) as { total: number; matched: number };
    expect(want.total).toBe(50);
    const r = await run('eval', 'g.logfilter', ...args, '--engine', 'duckdb', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: 50, matched: want.matched, malformed: 0 });
    // A quoted pattern that names no file is still a pattern (expanded as by the built-in engine).
    const g = await run('eval', 'g.logfilter', 'names/br?.ndjson', 'names/*.gz', '--engine', 'duckdb', '--json');
    expect(g.code, g.stderr).toBe(0);
    expect(JSON.parse(g.stdout)).toMatchObject({ total: 20 });
    const printed = await run('eval', 'g.logfilter', ...args, '--engine', 'duckdb', '--print');
    const builtinPrinted = await run('eval', 'g.logfilter', ...args, '--print');
    expect(printed.stdout.split('\n').sort()).toEqual(builtinPrinted.stdout.split('\n').sort());
  });

  it('exits 2 on flags it does not take, standard input, missing files and values of the wrong type', async () => {
    for (const args of [['--explain'], ['--strict'], ['--workers', '2']]) {
      expect((await run('eval', 'g.logfilter', 'logs.ndjson', '--engine', 'duckdb', ...args)).code, args[0]).toBe(2);
    }
    expect((await logfilter(['eval', 'g.logfilter', '-', '--engine', 'duckdb'], { cwd: dir, stdin: lines[0] })).code).toBe(2);
    const missing = await run('eval', 'g.logfilter', 'nope.ndjson', '--engine', 'duckdb');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.ndjson');
    expect((await run('eval', 'g.logfilter', 'nothing/*.gz', '--engine', 'duckdb')).code).toBe(2);
    write(dir, 'bad.ndjson', '{"BotTags":"not an array"}\n');
    const bad = await run('eval', 'g.logfilter', 'bad.ndjson', '--engine', 'duckdb');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.ndjson');
  });
});
