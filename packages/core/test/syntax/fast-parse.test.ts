/**
 * The fast path of parse() (src/filter/syntax/fast-parse.ts) against the reference parser (Chevrotain's,
 * src/filter/syntax/parse.ts): on every text it accepts, the same tree — nodes, offsets, comments, conditions, key
 * order — and no diagnostics; it accepts every valid filter of the corpus, the docs and a generator of valid
 * filters; and on near-valid text it never accepts what the reference reports.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decompile, parse } from '@logfilter/core';
import { fastParse } from '../../src/filter/syntax/fast-parse.js';
import { parse as referenceParse } from '../../src/filter/syntax/parse.js';
import { OPERATORS } from '../../src/filter/operators.js';
import { FILTER_PARSER_SETTINGS } from '../../src/filter/limits.js';
import { CORPUS, REPO } from '../../../../test/support/paths.js';
import { docBlocks, docFiles } from '../../../../test/support/doc-blocks.js';

/** Same tree as the reference, key order included (the JSON text), and the same values (toStrictEqual). */
function expectSame(text: string): void {
  const reference = referenceParse(text);
  const fast = fastParse(text);
  if (reference.diagnostics.length > 0) {
    expect(fast, `accepted text the reference reports: ${JSON.stringify(text)}`).toBeUndefined();
  } else {
    expect(fast, `gave up on a valid text: ${JSON.stringify(text)}`).toBeDefined();
    expect(JSON.stringify(fast)).toBe(JSON.stringify(reference));
    expect(fast).toStrictEqual(reference);
  }
  // parse() answers as the reference, whichever path it took
  expect(parse(text)).toStrictEqual(reference);
}

/** Accepted texts must match; a text the fast path gives up on must be one the reference has diagnostics for, or a sure one. */
function expectNeverWrong(text: string): boolean {
  const fast = fastParse(text);
  const reference = referenceParse(text);
  if (fast) {
    expect(reference.diagnostics, JSON.stringify(text)).toEqual([]);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(reference));
  } else expect(reference.diagnostics.length, `gave up on a valid text: ${JSON.stringify(text)}`).toBeGreaterThan(0);
  return fast !== undefined;
}

describe('fast path: fixed cases', () => {
  const valid = [
    '',
    '   \n',
    '# only a comment',
    'dataset http_requests',
    'dataset http_requests # c\nClientRequestHost == "a"',
    'ClientRequestHost == "example.com"\n',
    'a == 1and b == 2',
    'a in [1, 2] or b in [] or c in [1,] or d in ["x", "y",]',
    '`a b` == 1 and `in` != "x" and `é` startsWith "日本"',
    'not not (a == 1)',
    'not (not (a == 1 or b == 2) and c == 3)',
    'a not in [1] and b not startsWith "x" and c not endsWith "y" and d not contains "z"',
    'a !in [1] and b !startsWith "x" and c !endsWith "y" and d !contains "z" and e !eq 1 and f != 2',
    'a eq 1 and b lt 2 and c leq 3 and d gt 4 and e geq 5 and f < 6 and g <= 7 and h > 8 and i >= 9',
    'a == -0 or a == 1.5 or a == -2.25 or a == 99999999999999999999999 or a == 007',
    'a == true or b == false or c in [true, false, 1, 1.5, "s"]',
    'a == "\\u00e9\\n\\t\\"\\\\\\/\\b\\f\\r" or b == "\\uD83D\\uDE80"',
    'a == "🚀 é\u00a0"',
    '\ufeffa == 1\f\vand\u00a0b == 2\r\n',
    'a==1 and(b==2)or c==3',
    'x == "#not a comment" # a comment\n# another\r\nand y == 1',
    '_1 == 1 and A_b9 == 2',
    'inx == 1 and notable == 2 and trueish == 3 and dataset_x == 4 and eqq == 5 and ands == 6',
  ];
  it.each(valid.map((t) => [JSON.stringify(t), t]))('valid %s: accepted, same tree', (_, text) => {
    expect(fastParse(text)).toBeDefined();
    expectSame(text);
  });

  const invalid = [
    'a = 1',
    'a == 1 &&  b == 2',
    'a == 1 || b == 2',
    'a <> 1',
    'a !startsWithx "a"',
    '!a == 1',
    'a == "unterminated',
    'a == "bad \\x escape"',
    'a == "line\nbreak"',
    'a == "\\',
    '`unterminated == 1',
    '`` == 1',
    'a == 1.',
    'a == 1.5.3',
    'a == 1e5',
    'a == -',
    'a == 1 b == 2',
    'and a == 1',
    'a == 1 and',
    '(a == 1',
    'a == 1)',
    'a in [1 2]',
    'a in [,]',
    'a in [1,,2]',
    'a in [1,,]',
    'a in ["x",,,]',
    'a in [1',
    'a not == 1',
    'a not !in [1]',
    'dataset',
    'dataset in',
    'dataset a b',
    'a == 1 dataset x',
    'AND == 1 AND b == 2',
    'a == é',
    'a == 1\u2028',
    'a == [1] == 2',
    'not',
    '()',
    'a == (1)',
  ];
  it.each(invalid.map((t) => [JSON.stringify(t), t]))('invalid %s: given to the reference', (_, text) => {
    expect(referenceParse(text).diagnostics.length).toBeGreaterThan(0);
    expect(fastParse(text)).toBeUndefined();
    expect(parse(text)).toStrictEqual(referenceParse(text));
  });

  it('gives up exactly where the reference refuses the nesting depth (groups and chained not)', () => {
    const cap = FILTER_PARSER_SETTINGS.maxParseDepth;
    for (const n of [cap - 1, cap, cap + 1]) {
      expectSame(`${'not '.repeat(n)}a == 1`);
      expectSame(`${'('.repeat(n)}a == 1${')'.repeat(n)}`);
      expectSame(`${'not ('.repeat(Math.floor(n / 2))}a == 1${')'.repeat(Math.floor(n / 2))}`);
    }
    expect(fastParse(`${'not '.repeat(cap)}a == 1`)).toBeDefined();
    expect(fastParse(`${'not '.repeat(cap + 1)}a == 1`)).toBeUndefined();
  });

  it('agrees with the reference past its recovery limit (which then parses without recovery)', () => {
    const text = Array.from({ length: 1200 }, (_, i) => `f${i} in [${i}, "${i}"]`).join(' or\n');
    expect(fastParse(text)).toBeDefined();
    expectSame(text);
  });

  it('reads every operator spelling of the table as the reference does', () => {
    for (const o of OPERATORS) {
      for (const s of [...(o.symbol ? [o.symbol] : []), ...o.words, ...(o.notForm ? [`not ${o.notForm}`] : [])]) {
        const value = o.shape === 'list' ? '[1, "a"]' : '"a"';
        expectSame(`f ${s} ${value}`);
        expectSame(`f${s}${value}`);
      }
    }
  });
});

describe('fast path: real filters', () => {
  it('accepts the canonical source of every corpus filter, with the same tree', () => {
    const lines = fs.readFileSync(path.join(CORPUS, 'filters.jsonl'), 'utf8').split('\n').filter(Boolean);
    let sources = 0;
    for (const line of lines) {
      const record = JSON.parse(line) as { filter: unknown };
      const d = decompile(record.filter);
      if (!d.ok) continue;
      sources++;
      expectSame(d.source!);
      // and the same source written compactly, on one line
      expectSame(d.source!.replace(/\s*\n\s*/g, ' '));
    }
    expect(sources).toBeGreaterThan(40);
  });

  it("answers as the reference on every .logfilter file of the repository's fixtures and examples", () => {
    const files = ['packages/cli/examples', 'grammars/test/fixtures', 'test/e2e/fixtures/workspace'].flatMap((d) =>
      fs.readdirSync(path.join(REPO, d)).filter((f) => f.endsWith('.logfilter')).map((f) => path.join(REPO, d, f)),
    );
    expect(files.length).toBeGreaterThan(5);
    let accepted = 0;
    for (const f of files) if (expectNeverWrong(fs.readFileSync(f, 'utf8'))) accepted++;
    expect(accepted).toBeGreaterThan(3);
  });

  it("answers as the reference on the docs' filter examples", () => {
    const blocks = docFiles().flatMap(docBlocks).filter((b) => b.lang === 'logfilter');
    let accepted = 0;
    for (const b of blocks) if (expectNeverWrong(b.text)) accepted++;
    expect(accepted).toBeGreaterThan(10);
  });
});

// ---- generated filters -------------------------------------------------------------------------------------

const SPELLINGS = OPERATORS.flatMap((o) => [...(o.symbol ? [o.symbol] : []), ...o.words, ...(o.notForm ? [`not ${o.notForm}`] : [])].map((s) => ({ s, list: o.shape === 'list' })));
const space = fc.constantFrom(' ', '  ', '\n', '\r\n', '\t', ' # note\n', '# ü 🚀\n', '\u00a0', '\f', '\v', '\ufeff');
const gap = fc.oneof({ weight: 3, arbitrary: space }, { weight: 1, arbitrary: fc.constant('') });
const bareName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/).filter((s) => !/^(dataset|and|or|not|true|false|eq|lt|leq|gt|geq|in|contains|startsWith|endsWith)$/.test(s));
const quotedName = fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom('a', ' ', '-', '.', 'é', '日', '🚀', '"', '\\', 'in', '#') }).map((s) => `\`${s}\``);
const escape = fc.constantFrom('\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t', '\\u00e9', '\\uD83D\\uDE80', '\\u0000');
const stringLit = fc
  .array(fc.oneof(fc.string({ maxLength: 3, unit: 'grapheme' }).map((s) => s.replace(/["\\\r\n]/g, '')), escape, fc.constantFrom('#', '`', '\u2028', 'and', ' ')), { maxLength: 5 })
  .map((parts) => `"${parts.join('')}"`);
const number = fc.oneof(
  fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
  fc.constantFrom('0', '-0', '007', '9007199254740993', '-9223372036854775809'),
  fc.tuple(fc.integer({ min: -999, max: 999 }), fc.nat({ max: 9999 })).map(([a, b]) => `${a}.${b}`),
);
const scalar = fc.oneof(stringLit, number, fc.constantFrom('true', 'false'));
const list = fc
  .tuple(fc.array(fc.tuple(scalar, gap, gap), { maxLength: 4 }), fc.constantFrom('', ',', ',,'))
  .map(([items, tail]) => (items.length ? `[${items.map(([v, a, b]) => `${a}${v}${b}`).join(',')}${tail}]` : '[]'));
const condition = fc
  .tuple(fc.oneof(bareName, quotedName), fc.constantFrom(...SPELLINGS), scalar, list, gap, gap)
  .map(([f, op, one, many, a, b]) => `${f}${a || ' '}${op.s}${b || ' '}${op.list ? many : one}`);
const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    condition,
    fc.tuple(fc.array(tie('e'), { minLength: 2, maxLength: 4 }), fc.constantFrom('and', 'or'), space, space).map(([xs, k, a, b]) => xs.join(`${a}${k}${b}`)),
    fc.tuple(tie('e'), gap, gap).map(([e, a, b]) => `(${a}${e}${b})`),
    fc.tuple(tie('e'), space).map(([e, a]) => `not${a}(${e})`),
    fc.tuple(condition, space).map(([c, a]) => `not${a}${c}`),
  ),
})).e;
const filter = fc
  .tuple(fc.option(bareName), expr, gap, gap, fc.option(fc.constantFrom('# end', '#', '# \u2028 x')))
  .map(([ds, e, a, b, c]) => `${a}${ds ? `dataset ${ds}\n` : ''}${e}${b}${c ?? ''}`);

// fast-check runs hundreds of cases per property: allow for a slow, shared machine
const SLOW = 120_000;

describe('fast path: generated filters', () => {
  it('accepts every generated valid filter with the tree the reference builds', () => {
    fc.assert(
      fc.property(filter, (text) => {
        expectSame(text);
      }),
      { numRuns: 400 },
    );
  }, SLOW);

  /** One edit that often breaks a filter and sometimes does not. */
  const mutation = fc.tuple(
    fc.nat(),
    fc.constantFrom('delete', 'insert', 'duplicate', 'truncate', 'swap'),
    fc.constantFrom('"', '`', '\\', '(', ')', '[', ']', ',', '!', '=', '<', '>', '-', '.', '#', '\n', 'not ', ' and ', 'or', 'in', 'é', '&', '|', '1', 'a', ' '),
  );
  it('never accepts a near-valid mutation the reference reports, and agrees on those it does not', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(filter, fc.array(mutation, { minLength: 1, maxLength: 3 }), (text, edits) => {
        let t = text;
        for (const [at, kind, piece] of edits) {
          const i = t.length ? at % (t.length + 1) : 0;
          if (kind === 'delete') t = t.slice(0, i) + t.slice(i + 1);
          else if (kind === 'insert') t = t.slice(0, i) + piece + t.slice(i);
          else if (kind === 'duplicate') t = t.slice(0, i) + t.slice(i, i + 3) + t.slice(i);
          else if (kind === 'truncate') t = t.slice(0, i);
          else t = t.slice(0, i) + t.slice(i + 1, i + 2) + t.slice(i, i + 1) + t.slice(i + 2);
        }
        if (expectNeverWrong(t)) accepted++;
        else refused++;
        expect(parse(t)).toStrictEqual(referenceParse(t));
      }),
      { numRuns: 600 },
    );
    // both outcomes occur, so the property looks at both
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
  }, SLOW);
});
