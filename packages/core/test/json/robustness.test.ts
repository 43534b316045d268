/** The reader never throws on user input, and every range it gives lies inside the text. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OPERATORS } from '../../src/filter/operators.js';
import { readFilterInput, type ReadFilterResult } from '../../src/filter/json/index.js';

function checkRanges(text: string, r: ReadFilterResult): void {
  const inside = (x: { start: number; end: number }) => 0 <= x.start && x.start <= x.end && x.end <= text.length;
  for (const d of r.diagnostics) {
    expect(inside(d), JSON.stringify(d)).toBe(true);
    for (const rel of d.related ?? []) expect(inside(rel)).toBe(true);
    for (const f of d.fixes ?? []) for (const e of f.edits) expect(inside(e)).toBe(true);
  }
  // An expression exactly when there is no error.
  expect(Boolean(r.expr)).toBe(!r.diagnostics.some((d) => d.severity === 'error'));
}

const scalar = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map((b) => b),
  fc.boolean(),
);
const { node } = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, tie('condition'), tie('group')),
  condition: fc.record({
    key: fc.string({ maxLength: 8 }),
    operator: fc.constantFrom(...OPERATORS.map((o) => o.name)),
    value: fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })),
  }),
  group: fc.oneof(
    fc.record({ and: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
  ),
}));
/** Valid filter JSON text in the forms people write it: compact, pretty, encoded, inside a job. */
const validText = fc.tuple(node, fc.constantFrom('filter', 'pretty', 'string', 'job', 'envelope')).map(([where, form]) => {
  const json = (v: unknown, indent?: number) =>
    JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `@@${x}@@` : x), indent).replace(/"@@(-?\d+)@@"/g, '$1');
  const doc = json({ where });
  switch (form) {
    case 'pretty':
      return json({ where }, 2);
    case 'string':
      return JSON.stringify(doc);
    case 'job':
      return JSON.stringify({ dataset: 'http_requests', filter: doc });
    case 'envelope':
      return JSON.stringify({ result: { id: 1, filter: doc }, success: true, errors: [], messages: [] });
    default:
      return doc;
  }
});

const mutation = fc.record({
  at: fc.nat(),
  length: fc.nat({ max: 4 }),
  insert: fc.oneof(fc.constantFrom('', '"', '\\', '{', '}', '[', ']', ',', ':', '\\"', '\\u00', 'null', '\n', 'neq'), fc.string({ maxLength: 3 })),
});

describe('never throws', () => {
  it('valid filter JSON reads without error', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(validText, (text) => {
        const r = readFilterInput(text);
        expect(r.diagnostics).toEqual([]);
        checkRanges(text, r);
      }),
      { numRuns: 300 },
    );
  });

  it('random mutations of valid filter JSON', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(validText, fc.array(mutation, { minLength: 1, maxLength: 4 }), (valid, mutations) => {
        let text = valid;
        for (const m of mutations) {
          const at = m.at % (text.length + 1);
          text = text.slice(0, at) + m.insert + text.slice(at + m.length);
        }
        checkRanges(text, readFilterInput(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('random strings', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.stringMatching(/^[{}[\]":,\\a-z0-9 ]{0,40}$/)), (text) => {
        checkRanges(text, readFilterInput(text));
      }),
      { numRuns: 400 },
    );
  });

  it('random values', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const r = readFilterInput(value);
        if (typeof value !== 'string') for (const d of r.diagnostics) expect([d.start, d.end]).toEqual([0, 0]);
      }),
      { numRuns: 500 },
    );
  });
});

describe('size', () => {
  it('100,000-deep nesting gives a diagnostic', () => {
    const deep = '{"where":' + '{"and":['.repeat(100_000) + ']}'.repeat(100_000) + '}';
    const r = readFilterInput(deep);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['too-deep']);
    expect(r.expr).toBeUndefined();
    const arrays = '['.repeat(100_000);
    expect(readFilterInput(arrays).diagnostics.map((d) => d.code)).toEqual(['too-deep']);
    // The same depth as an encoded string and as a value.
    expect(readFilterInput(JSON.stringify(deep)).diagnostics.map((d) => d.code)).toEqual(['too-deep']);
    let value: unknown = { key: 'A', operator: 'eq', value: 1 };
    for (let i = 0; i < 100_000; i++) value = { and: [value] };
    expect(readFilterInput({ where: value }).diagnostics.map((d) => d.code)).toEqual(['too-deep']);
  });

  it('nesting the reader can take builds the tree', () => {
    let text = '{"key":"A","operator":"eq","value":1}';
    for (let i = 0; i < 200; i++) text = `{"or":[${text}]}`;
    const r = readFilterInput(`{"where":${text}}`);
    expect(r.diagnostics).toEqual([]);
    expect(r.expr?.kind).toBe('or');
  });

  it('a 1 MB document', { timeout: 120_000 }, () => {
    const items = Array.from({ length: 18_000 }, (_, i) => ({ key: `Field${i}`, operator: i === 17_999 ? 'neq' : 'eq', value: `value-${i}` }));
    const text = JSON.stringify({ where: { or: items } });
    expect(text.length).toBeGreaterThan(1_000_000);
    const r = readFilterInput(text);
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([['unknown-operator', ['where', 'or', 17_999, 'operator']]]);
    const valid = readFilterInput(text.replace('"neq"', '"eq"'));
    expect(valid.diagnostics).toEqual([]);
    expect(valid.expr?.kind === 'or' && valid.expr.items.length).toBe(18_000);
  });
});
