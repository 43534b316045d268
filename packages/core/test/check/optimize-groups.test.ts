/**
 * `--optimize` drops a repeated group as the checker's `duplicate-condition` sees one: the same operator and the
 * same members as a set, in any order, after `not` is pushed down (one structural key, compile/node-key.ts).
 * The meaning is unchanged: before and after are evaluated on every line over the fields they read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, compile, createMatcher, type FilterDocument } from '../../src/index.js';

const optimized = (text: string) => compile(text, { optimize: true });

describe('optimize drops repeated groups', () => {
  it.each([
    ['(a == 1 or b == 2) and (a == 1 or b == 2)', '(a == 1 or b == 2)'],
    ['(a == 1 or b == 2) and (b == 2 or a == 1)', '(a == 1 or b == 2)'],
    ['(a == 1 or b == 2) and c == 3 and (b == 2 or a == 1) and d == 4', '(a == 1 or b == 2) and c == 3 and d == 4'],
    ['c == 3 or (a == 1 and b == 2) or (b == 2 and a == 1)', 'c == 3 or (a == 1 and b == 2)'],
    ['(a == 1 and (b == 2 or c == 3)) or ((c == 3 or b == 2) and a == 1)', 'a == 1 and (b == 2 or c == 3)'],
    ['(a != 1 or b != 2) and not (a == 1 and b == 2)', '(a != 1 or b != 2)'],
    // members written twice make the same group as members written once
    ['(a == 1 or b == 2) and (b == 2 or a == 1 or b == 2)', '(a == 1 or b == 2)'],
  ])('%j', (text, want) => {
    const r = optimized(`dataset any\n${text}`);
    expect(r.json).toBe(compile(`dataset any\n${want}`).json);
    expect(r.stats.operators).toBeLessThan(r.stats.operatorsBeforeOptimize!);
  });

  it('a repeat whose optimised form differs by list order (merges on a known field) is dropped too', () => {
    const r = optimized('dataset http_requests\n(ClientCountry == "us" or ClientCountry == "ca") and EdgeResponseStatus == 200 and (ClientCountry == "ca" or ClientCountry == "us")');
    expect(r.json).toBe(compile('dataset http_requests\nClientCountry in ["us", "ca"] and EdgeResponseStatus == 200').json);
  });

  it.each([
    '(a == 1 or b == 2) and (a == 1 and b == 2)',
    '(a == 1 or b == 2) and (a == 1 or b == 3)',
    '(a == 1 or b == 2) and (a == 1 or b == 2 or c == 3)',
    '(a == 1 or b == 2) and (a == 1 or b == "2")',
    '(a == 1 or b == 2) and not (a == 1 or b == 2)',
  ])('different groups are kept: %j', (text) => {
    const r = optimized(`dataset any\n${text}`);
    expect(r.stats.operators).toBe(r.stats.operatorsBeforeOptimize);
  });
});

/** Random filters over three fields with small values, where groups are often repeated in another order. */
const FIELDS = ['a', 'b', 'c'] as const;
type Tree = { key: string; op: '==' | '!=' | '>=' ; v: number } | { kind: 'and' | 'or' | 'not'; items: Tree[] };
const cond = fc.record({ key: fc.constantFrom(...FIELDS), op: fc.constantFrom('==' as const, '!=' as const, '>=' as const), v: fc.integer({ min: 0, max: 2 }) });
const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree; group: Tree }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, cond, tie('group')),
  group: fc
    .record({ kind: fc.constantFrom('and' as const, 'or' as const, 'not' as const), items: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) })
    .chain((g) =>
      // a group and, often, the same group again with its members in another order
      fc.tuple(fc.boolean(), fc.shuffledSubarray(g.items, { minLength: g.items.length, maxLength: g.items.length })).map(([again, shuffled]) =>
        again && g.kind !== 'not' ? { kind: g.kind, items: [g, { kind: g.kind, items: shuffled }, ...g.items.slice(0, 1)] } : g,
      ),
    ),
})).node;

function source(t: Tree): string {
  if ('key' in t) return `${t.key} ${t.op} ${t.v}`;
  if (t.kind === 'not') return `not (${t.items.map(source).join(' and ')})`;
  return `(${t.items.map(source).join(` ${t.kind} `)})`;
}

/** Every line over the three fields: each absent or 0..3. */
const LINES: Record<string, number>[] = [];
for (let i = 0; i < 5 ** 3; i++) {
  const line: Record<string, number> = {};
  FIELDS.forEach((f, j) => {
    const v = Math.floor(i / 5 ** j) % 5;
    if (v < 4) line[f] = v;
  });
  LINES.push(line);
}

describe('optimize keeps the meaning', () => {
  it('on every line, for random filters with repeated groups; and leaves no duplicate the checker would see', () => {
    let dropped = 0;
    fc.assert(
      fc.property(tree, (t) => {
        const text = `dataset any\n${source(t)}`;
        // no limits: the optimised filter may fit where the written one does not
        const before = compile(text, { maxOperators: 100_000, maxBytes: 10_000_000 });
        const after = compile(text, { optimize: true, maxOperators: 100_000, maxBytes: 10_000_000 });
        expect(before.ok).toBe(true);
        expect(after.ok).toBe(true);
        const m1 = createMatcher(JSON.parse(before.json!) as FilterDocument);
        const m2 = createMatcher(JSON.parse(after.json!) as FilterDocument);
        for (const line of LINES) expect(m2.test(line)).toBe(m1.test(line));
        if (after.stats.operators < before.stats.operators) dropped++;
        expect(check(after.json!, { dataset: 'any' }).diagnostics.filter((d) => d.code === 'duplicate-condition')).toEqual([]);
      }),
      { numRuns: 300 },
    );
    // the generator does repeat groups: the property is not vacuous
    expect(dropped).toBeGreaterThan(30);
  });
});
