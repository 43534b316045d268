/**
 * The same filters on the same lines, three ways: the built-in evaluator, DuckDB running the SQL `toSql`
 * generates, and ClickHouse (chdb) running its SQL. Every line must get the same verdict from all three.
 * Filters: the corpus, the conformance fixtures, and fast-check generated ones; lines: the corpus's real
 * lines and generated ones. ClickHouse runs when scripts/install-chdb.sh could install it (test/engines/run.sh).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { createLineMatcher, createMatcher, exactFilter, toSqlQuery, type FilterDocument } from '@logfilter/core';
import { CASE_KEYS, PINNED } from './exact-cases.js';
import { chdbStatus, openClickHouse, openDuckDb, type Engine } from './engines.js';
import { conformanceCases, corpusCases, negated, realLines } from './cases.js';
import { differential, describeMismatches, runEngine, writeLines, type Case } from './differential.js';
import { EXACT, generators, SAFE } from './generators.js';

const SEED = Number(process.env.LOGFILTER_ENGINES_SEED ?? 20261123);
const chdb = chdbStatus();
const clickhouseWanted = process.env.LOGFILTER_CHDB !== '0' && chdb.ok;
if (!clickhouseWanted) console.log(`ClickHouse differential tests SKIPPED: ${chdb.ok ? 'LOGFILTER_CHDB=0' : chdb.reason}`);

/** The evaluator follows the exact rules (integers beyond 2^53, the JSON number grammar for strings)? */
const EVALUATOR_EXACT =
  !createMatcher(exactFilter('{"where":{"key":"t","operator":"eq","value":1700000000123456790}}')).test({ t: '1700000000123456789' }) &&
  createLineMatcher(exactFilter('{"where":{"key":"t","operator":"lt","value":1700000000123456790}}')).test('{"t":1700000000123456789}') &&
  !createMatcher({ where: { key: 'n', operator: 'eq', value: 30 } }).test({ n: '030' });

if (!EVALUATOR_EXACT) {
  console.log(
    'Evaluator comparisons in the exact domain SKIPPED: the built-in evaluator rounds integers beyond 2^53 or reads strings outside the JSON number grammar (e.g. "030") as numbers; the engines are checked against each other and against pinned verdicts there',
  );
}

const engines: { name: string; open: () => Promise<Engine>; textTimestamps: boolean; skip: boolean }[] = [
  { name: 'duckdb', open: openDuckDb, textTimestamps: false, skip: false },
  // ClickHouse holds `int or string` fields as text: string operators there see a number's digits
  { name: 'clickhouse', open: openClickHouse, textTimestamps: true, skip: !clickhouseWanted },
];

const sample = <T>(arb: fc.Arbitrary<T>, n: number, seed: number) => fc.sample(arb, { numRuns: n, seed });

for (const e of engines) {
  describe.skipIf(e.skip)(`${e.name} agrees with the built-in evaluator`, () => {
    let engine: Engine;
    beforeAll(async () => {
      engine = await e.open();
    });
    afterAll(async () => engine?.close());
    const safe = generators(SAFE, { textTimestamps: e.textTimestamps });
    const genLines = sample(safe.logLine, 400, SEED);

    it('every corpus filter, on the real http_requests lines and generated lines', async () => {
      const cases = corpusCases();
      expect(cases.length).toBeGreaterThan(40);
      expect(realLines('http_requests').length).toBeGreaterThan(50);
      const ms = await differential(cases, [...realLines('http_requests'), ...genLines], [engine]);
      expect(ms, describeMismatches(ms)).toEqual([]);
    });

    it('every compiling conformance case, on real and generated lines', async () => {
      const cases = conformanceCases();
      expect(cases.length).toBeGreaterThan(15);
      const ms = await differential(cases, [...realLines('http_requests'), ...genLines], [engine]);
      expect(ms, describeMismatches(ms)).toEqual([]);
    });

    it('the dns_logs and firewall_events corpus lines under their own schemas', async () => {
      for (const dataset of ['dns_logs', 'firewall_events']) {
        const lines = realLines(dataset);
        const fields = Object.keys(JSON.parse(lines[0]!) as object).slice(0, 6);
        const cases: Case[] = fields.flatMap((f) => [
          { name: `${dataset} ${f} present`, json: JSON.stringify({ where: { key: f, operator: '!eq', value: 'no such value' } }), dataset },
          { name: `${dataset} ${f} eq first`, json: JSON.stringify({ where: { key: f, operator: 'eq', value: (JSON.parse(lines[0]!) as Record<string, string>)[f] } }), dataset },
        ]);
        const ms = await differential(cases.filter((c) => !c.json.includes('"value":{') && !c.json.includes('"value":[')), lines, [engine]);
        expect(ms, describeMismatches(ms)).toEqual([]);
      }
    });

    it('1500 generated filters (every operator, nesting, negation, absent and null fields, arrays, unicode, escapes) on 400 generated lines', async () => {
      const filters = sample(safe.filterJson, 1500, SEED + 1);
      const cases = filters.map((json, i) => ({ name: `generated #${i}: ${json}`, json, dataset: 'http_requests' }));
      const ms = await differential(cases, genLines, [engine]);
      expect(ms, describeMismatches(ms)).toEqual([]);
    });

    // (`not` is not a boolean complement in the language: `not (x < 5)` compiles to `x >= 5`, false where x is
    // absent. So only the verdicts are compared here; the SQL of each condition is two-valued on its own.)
    it('400 generated filters negated in the language (not (F), pushed down by the compiler)', async () => {
      // Numbers with an exponent (2.5e-1) are left out: the decompiler writes them as they are, and the source
      // grammar has no exponent, so `not (...)` around the decompiled source would not parse.
      const base = sample(safe.filterJson, 400, SEED + 4)
        .filter((json) => !/[0-9][eE][-+]?[0-9]/.test(json.replace(/"(?:[^"\\]|\\.)*"/g, '""')))
        .map((json, i) => ({ name: `generated #${i}: ${json}`, json, dataset: 'http_requests' }));
      expect(base.length).toBeGreaterThan(250);
      const pairs = base.map((c) => [c, negated(c)] as const).filter((p): p is readonly [Case, Case] => p[1] !== undefined);
      expect(pairs.length).toBe(base.length);
      const ms = await differential(pairs.map((p) => p[1]), genLines, [engine]);
      expect(ms, describeMismatches(ms)).toEqual([]);
    });

    it.skipIf(!EVALUATOR_EXACT)('the exact domain (integers beyond 2^53, strings outside the JSON number grammar) too', async () => {
      const exact = generators(EXACT, { textTimestamps: e.textTimestamps });
      const cases = sample(exact.filterJson, 800, SEED + 2).map((json, i) => ({ name: `exact #${i}: ${json}`, json, dataset: 'http_requests' }));
      const ms = await differential(cases, sample(exact.logLine, 300, SEED + 3), [engine]);
      expect(ms, describeMismatches(ms)).toEqual([]);
    });
  });
}

describe.skipIf(!clickhouseWanted)('DuckDB and ClickHouse agree with each other in the exact domain', () => {
  it('800 generated filters with integers beyond 2^53 and near-numeric strings, on 300 lines', async () => {
    const exact = generators(EXACT, { textTimestamps: true });
    const lines = sample(exact.logLine, 300, SEED + 3);
    const cases = sample(exact.filterJson, 800, SEED + 2).map((json, i) => ({ name: `exact #${i}: ${json}`, json, dataset: 'http_requests' }));
    const [duck, house] = [await openDuckDb(), await openClickHouse()];
    const a = await runEngine(cases, lines, duck);
    const b = await runEngine(cases, lines, house);
    const diff = cases.flatMap((c, i) => lines.flatMap((l, j) => (a[i]![j] === b[i]![j] ? [] : [`${c.name}\n  line: ${l}\n  duckdb ${a[i]![j]}, clickhouse ${b[i]![j]}`])));
    expect(diff.slice(0, 5).join('\n')).toBe('');
    // and the generated SQL is two-valued: never NULL on any row
    expect(a.flat().filter((v) => v === null)).toEqual([]);
    expect(b.flat().filter((v) => v === null)).toEqual([]);
    await duck.close();
  });
});

describe.skipIf(!clickhouseWanted)('ClickHouse gives the pinned verdicts', () => {
  it('exact integers, numeric strings, absent and null fields, empty strings, escapes', async () => {
    const house = await openClickHouse();
    const got: boolean[] = [];
    for (const [i, p] of PINNED.entries()) got.push((await runEngine([{ name: `#${i}`, json: p.filter, dataset: 'http_requests' }], [p.line], house))[0]![0] as boolean);
    expect(got.map((matches, i) => ({ ...PINNED[i], matches }))).toEqual(PINNED);
  });
});

describe('the built-in evaluator on the pinned verdicts', () => {
  it.skipIf(!EVALUATOR_EXACT)('gives every one', () => {
    expect(PINNED.map((p) => ({ ...p, matches: createLineMatcher(exactFilter(p.filter)).test(p.line) }))).toEqual(PINNED);
  });
  it('looks keys up by their exact name (keys that differ only in case)', () => {
    expect(CASE_KEYS.map((p) => ({ ...p, matches: createLineMatcher(exactFilter(p.filter)).test(p.line) }))).toEqual(CASE_KEYS);
  });
});

// ClickHouse's JSONEachRow takes a key that differs only in case when the exact one is missing (or comes
// later); the scan the generated SQL uses reads each line as text and extracts keys by their exact names.
describe.skipIf(!clickhouseWanted)('ClickHouse reads keys by their exact name, as the evaluator does', () => {
  it('through the differential harness (one scan, every case)', async () => {
    const house = await openClickHouse();
    const got: boolean[] = [];
    for (const [i, p] of CASE_KEYS.entries()) got.push((await runEngine([{ name: `#${i}`, json: p.filter, dataset: 'http_requests' }], [p.line], house))[0]![0] as boolean);
    expect(got.map((matches, i) => ({ ...CASE_KEYS[i], matches }))).toEqual(CASE_KEYS);
  });

  it('through the whole query compile --query --from prints (every column of the dataset declared)', () => {
    const chdbModule = createRequire(import.meta.url)((chdb as { path: string }).path) as { query(sql: string, format: string): string };
    const got = CASE_KEYS.map((p) => {
      const file = writeLines([p.line]);
      const sql = toSqlQuery(p.filter, { dialect: 'clickhouse', from: file }).sql!.replace(/^SELECT \*/, 'SELECT count()');
      return { ...p, matches: Number(chdbModule.query(sql, 'CSV').trim()) === 1 };
    });
    expect(got).toEqual(CASE_KEYS);
  });

  it('refuses a line its JSON functions cannot read rather than read its fields as absent', () => {
    const chdbModule = createRequire(import.meta.url)((chdb as { path: string }).path) as { query(sql: string, format: string): string };
    const file = writeLines(['{"ClientIP":"1.2.3.4"}', '{"ClientIP":"1.2.3.4","RayID":123456789012345678901234567890}']);
    const sql = toSqlQuery('{"where":{"key":"ClientIP","operator":"!eq","value":"1.2.3.4"}}', { dialect: 'clickhouse', from: file }).sql!.replace(/^SELECT \*/, 'SELECT count()');
    expect(() => chdbModule.query(sql, 'CSV')).toThrow(/FUNCTION_THROW_IF_VALUE_IS_NON_ZERO|395/);
  });
});

describe('whole queries (--query) run as printed, over an NDJSON file with every column of the dataset', () => {
  const cases = corpusCases().slice(0, 20);
  const lines = realLines('http_requests');
  const expected = cases.map((c) => lines.filter((l) => createLineMatcher(exactFilter(c.json)).test(l)).length);
  const file = writeLines(lines);

  it('DuckDB', async () => {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const got: number[] = [];
    for (const c of cases) {
      const q = toSqlQuery(c.json, { dialect: 'duckdb', from: file }).sql!.replace(/^SELECT \*/, 'SELECT count(*)');
      got.push(Number((await conn.runAndReadAll(q)).getRows()[0]![0]));
    }
    expect(got).toEqual(expected);
  });

  it.skipIf(!clickhouseWanted)('ClickHouse', async () => {
    const chdbModule = createRequire(import.meta.url)((chdb as { path: string }).path) as { query(sql: string, format: string): string };
    const got = cases.map((c) => Number(chdbModule.query(toSqlQuery(c.json, { dialect: 'clickhouse', from: file }).sql!.replace(/^SELECT \*/, 'SELECT count()'), 'CSV').trim()));
    expect(got).toEqual(expected);
  });
});
