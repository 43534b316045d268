/**
 * The kernel path's byte tests (span-conditions.ts): the string operators, eq and in decided on the value's
 * bytes, and comparisons on small integers read from their digits, must give the reference evaluator's verdict
 * on every line, whatever the filter text (ASCII, non-ASCII,
 * astral, lone surrogates, empty, numeric) and whatever the value (escaped or not, non-string, null, absent).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { refCounts } from './reference.js';
import { scanPath } from './harness.js';

const encoder = new TextEncoder();
const KEYS = ['p', 'q', 'r'];
/** Pieces that collide in UTF-8 and UTF-16: é (C3 A9) and © (C2 A9), an astral character and its halves. */
const PIECES = ['a', 'b', '.', 'php', 'é', '©', '\u00c3', '😀', '\ud83d', '\ude00', '𐀀', '1', '0', '"', '\\', '/', ' '];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 4 }).map((a) => a.join(''));
const numeric = fc.constantFrom('1', '10', '-1', '1.5', '1e1', '01');
const filterText = fc.oneof(text, text, numeric, fc.constant(''));

const OPS = ['startsWith', '!startsWith', 'endsWith', '!endsWith', 'contains', '!contains', 'eq', '!eq', 'in', '!in', 'lt', 'leq', 'gt', 'geq'] as const;
const condition = fc
  .record({
    key: fc.constantFrom(...KEYS),
    operator: fc.constantFrom(...OPS),
    value: fc.oneof(filterText, filterText, filterText, fc.integer({ min: -1, max: 10 }), fc.constantFrom(1.5, -0, 1e15, 999999999999999, 9007199254740992), fc.boolean()),
    list: fc.array(fc.oneof(filterText, filterText, fc.integer({ min: -1, max: 10 })), { minLength: 1, maxLength: 4 }),
  })
  .map(({ key, operator, value, list }) => ({ key, operator, value: operator === 'in' || operator === '!in' ? list : value }));
const node: fc.Arbitrary<any> = fc.letrec((tie) => ({
  n: fc.oneof(
    { depthSize: 'small' },
    condition,
    fc.record({ and: fc.array(tie('n'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('n'), { minLength: 1, maxLength: 3 }) }),
  ),
})).n;

/** A string written as JSON, each character escaped (\u, either case) or not, as `esc` picks. */
function writeString(s: string, esc: boolean[]): string {
  let out = '"';
  let k = 0;
  for (const ch of s) {
    const units = [...Array(ch.length).keys()].map((i) => ch.charCodeAt(i));
    const must = ch === '"' || ch === '\\' || ch < ' ' || (units.length === 1 && units[0]! >= 0xd800 && units[0]! <= 0xdfff);
    out += must || esc[k++ % esc.length] ? units.map((u) => '\\u' + u.toString(16).padStart(4, '0')).join('') : ch;
  }
  return out + '"';
}

const value = fc.oneof(
  fc.tuple(fc.oneof(text, numeric, fc.constant('')), fc.array(fc.boolean(), { minLength: 1, maxLength: 4 })).map(([s, esc]) => ({ s, esc })),
  fc.tuple(fc.oneof(text, numeric), fc.array(fc.constant(false), { minLength: 1, maxLength: 1 })).map(([s, esc]) => ({ s, esc })),
  fc.constantFrom('null', 'true', 'false', '0', '1', '10', '-1', '1.5', '[]', '["a"]', '["php","1"]', '[1,"é"]', '{"p":"a"}'),
  // integers at the edges of the digit path (15 digits; 16 and more read the row), -0, exponents, leading zeros
  fc.constantFrom('-0', '999999999999999', '-999999999999999', '1000000000000000', '9007199254740993', '12345678901234567890', '1e1', '1E+1', '2.0', '00', '-', '1x'),
);
const line = fc
  .array(fc.tuple(fc.constantFrom(...KEYS), value), { maxLength: 4 })
  .map((pairs) => '{' + pairs.map(([k, v]) => `"${k}":` + (typeof v === 'string' ? v : writeString(v.s, v.esc))).join(',') + '}');

function agree(filter: unknown, lines: string[]): void {
  const text = lines.join('\n');
  const ref = refCounts(filter as never, text);
  for (const node of [false, true]) {
    const fast = scanPath(filter as never, encoder.encode(text), { node, kernel: true });
    expect(fast.matches).toEqual(ref.matches);
    expect(fast.total).toBe(ref.total);
  }
}

describe('conditions decided on the span bytes', () => {
  it('agree with the reference evaluator on random string filters and values', () => {
    fc.assert(
      fc.property(node, fc.array(line, { maxLength: 10 }), (where, lines) => agree({ where }, lines)),
      { numRuns: 1500 },
    );
  }, 120_000);

  it('when the lines hold the filter values themselves, escaped or not', () => {
    const arb = fc.array(condition, { minLength: 1, maxLength: 3 }).chain((conds) => {
      const texts = conds.flatMap((c) => (Array.isArray(c.value) ? c.value : [c.value])).filter((v): v is string => typeof v === 'string');
      const own = texts.length > 0 ? fc.constantFrom(...texts) : text;
      const piece = fc.oneof(own, own, text);
      const v = fc.tuple(fc.array(piece, { minLength: 1, maxLength: 3 }).map((a) => a.join('')), fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }));
      const l = fc.array(fc.tuple(fc.constantFrom(...KEYS), fc.oneof(own, v.map(([s, esc]) => writeString(s, esc)), own.map((s) => writeString(s, [false])))), { maxLength: 3 }).map(
        (pairs) => '{' + pairs.map(([k, x]) => `"${k}":` + (x.startsWith('"') ? x : writeString(x, [false]))).join(',') + '}',
      );
      return fc.tuple(fc.constant(conds), fc.constantFrom('and', 'or'), fc.array(l, { maxLength: 8 }));
    });
    fc.assert(
      fc.property(arb, ([conds, op, lines]) => agree({ where: { [op]: conds } }, lines)),
      { numRuns: 1500 },
    );
  }, 120_000);

  const cases: [string, unknown, string, boolean][] = [
    // a lone surrogate's UTF-8 is U+FFFD: it must be left to the UTF-16 test, which finds it in the pair
    ['startsWith a high surrogate', { key: 'p', operator: 'startsWith', value: '\ud83d' }, '{"p":"😀x"}', true],
    ['contains a low surrogate', { key: 'p', operator: 'contains', value: '\ude00b' }, '{"p":"a😀b"}', true],
    ['!endsWith a low surrogate', { key: 'p', operator: '!endsWith', value: '\ude00' }, '{"p":"a😀"}', false],
    ['a needle whose bytes end a character of the value', { key: 'p', operator: 'endsWith', value: '©' }, '{"p":"café"}', false],
    ['contains across characters', { key: 'p', operator: 'contains', value: '\u00a9' }, '{"p":"é"}', false],
    ['contains non-ASCII', { key: 'p', operator: 'contains', value: 'fé' }, '{"p":"café!"}', true],
    ['contains an astral character', { key: 'p', operator: 'contains', value: '😀' }, '{"p":"a😀b"}', true],
    ['contains "" on a string', { key: 'p', operator: 'contains', value: '' }, '{"p":"x"}', true],
    ['contains "" on an empty string', { key: 'p', operator: 'contains', value: '' }, '{"p":""}', true],
    ['contains "" on a number', { key: 'p', operator: 'contains', value: '' }, '{"p":1}', false],
    ['!contains "" on an absent field', { key: 'p', operator: '!contains', value: '' }, '{"q":"x"}', true],
    ['startsWith "" on a string', { key: 'p', operator: 'startsWith', value: '' }, '{"p":""}', true],
    ['endsWith longer than the value', { key: 'p', operator: 'endsWith', value: 'x.php' }, '{"p":"php"}', false],
    ['startsWith longer than the value', { key: 'p', operator: 'startsWith', value: 'phpx' }, '{"p":"php"}', false],
    ['startsWith past the value into its closing quote', { key: 'p', operator: 'startsWith', value: 'a"' }, '{"p":"a"}', false],
    ['endsWith before the value into its opening quote', { key: 'p', operator: 'endsWith', value: '"a' }, '{"p":"a"}', false],
    ['contains across the closing quote', { key: 'p', operator: 'contains', value: 'a"' }, '{"p":"a","q":1}', false],
    ['endsWith on an escaped value', { key: 'p', operator: 'endsWith', value: '.php' }, '{"p":"/a\\u002ephp"}', true],
    ['contains on an escaped value', { key: 'p', operator: 'contains', value: 'bot' }, '{"p":"x\\u0062ot"}', true],
    ['!contains on an escaped value', { key: 'p', operator: '!contains', value: 'é' }, '{"p":"caf\\u00e9"}', false],
    ['eq on an escaped value', { key: 'p', operator: 'eq', value: 'us' }, '{"p":"\\u0075s"}', true],
    ['in on an escaped value', { key: 'p', operator: 'in', value: ['ca', 'us'] }, '{"p":"u\\u0073"}', true],
    ['contains on an array', { key: 'p', operator: 'contains', value: 'bot' }, '{"p":["bot"]}', true],
    ['contains on an array, partial', { key: 'p', operator: 'contains', value: 'bo' }, '{"p":["bot"]}', false],
    ['in on an array', { key: 'p', operator: 'in', value: ['x', 'bot'] }, '{"p":["bot"]}', true],
    ['eq on an array', { key: 'p', operator: 'eq', value: 'bot' }, '{"p":["bot"]}', false],
    ['startsWith on a number', { key: 'p', operator: 'startsWith', value: '1' }, '{"p":12}', false],
    ['!startsWith on a number', { key: 'p', operator: '!startsWith', value: '1' }, '{"p":12}', true],
    ['!endsWith on null', { key: 'p', operator: '!endsWith', value: 'a' }, '{"p":null}', true],
    ['endsWith on null', { key: 'p', operator: 'endsWith', value: 'l' }, '{"p":null}', false],
    ['!in on null', { key: 'p', operator: '!in', value: ['a'] }, '{"p":null}', true],
    ['eq a numeric string on a number', { key: 'p', operator: 'eq', value: '10' }, '{"p":1e1}', true],
    ['in a numeric string on a string', { key: 'p', operator: 'in', value: ['x', '10'] }, '{"p":"10"}', true],
    ['in a number on a numeric string', { key: 'p', operator: 'in', value: ['x', 10] }, '{"p":"1e1"}', true],
    ['eq a boolean', { key: 'p', operator: 'eq', value: true }, '{"p":true}', true],
    ['eq on a string that differs in length', { key: 'p', operator: 'eq', value: 'us' }, '{"p":"usa"}', false],
    ['!eq on a number with a plain string', { key: 'p', operator: '!eq', value: 'us' }, '{"p":5}', true],
    ['the last of duplicate keys', { key: 'p', operator: 'endsWith', value: 'b' }, '{"p":"b","p":"a"}', false],
  ];
  for (const [name, cond, l, expected] of cases) {
    it(name, () => {
      const filter = { where: cond };
      const ref = refCounts(filter as never, l);
      expect(ref.matched).toBe(expected ? 1 : 0);
      agree(filter, [l]);
    });
  }
});
