/**
 * `duplicate-condition` judges a repeated group structurally: the same operator and the same members as a set
 * (after `not` is pushed down), whatever their order. The diagnostic covers the repeat (with its parentheses
 * and a `not` written before them) and the quick fix removes it with its joining word.
 */
import { describe, expect, it } from 'vitest';
import { applyEdits, check, compile, type Diagnostic } from '../../src/index.js';

const dups = (text: string) => compile(text).diagnostics.filter((d) => d.code === 'duplicate-condition');
const span = (text: string, d: Diagnostic) => text.slice(d.start, d.end);

describe('duplicate-condition on groups', () => {
  it.each([
    // [text, the repeat's text, the first's text]
    ['dataset any\n(a == 1 or b == 2) and (a == 1 or b == 2)', '(a == 1 or b == 2)', '(a == 1 or b == 2)'],
    ['dataset any\n(a == 1 or b == 2) and (b == 2 or a == 1)', '(b == 2 or a == 1)', '(a == 1 or b == 2)'],
    ['dataset any\nc == 3 or (a == 1 and b == 2) or (b == 2 and a == 1)', '(b == 2 and a == 1)', '(a == 1 and b == 2)'],
    ['dataset any\n(a == 1 and (b == 2 or c == 3)) or ((c == 3 or b == 2) and a == 1)', '((c == 3 or b == 2) and a == 1)', '(a == 1 and (b == 2 or c == 3))'],
    // after `not` is pushed down the two mean the same; the range holds the `not`
    ['dataset any\n(a != 1 or b != 2) and not (a == 1 and b == 2)', 'not (a == 1 and b == 2)', '(a != 1 or b != 2)'],
  ])('%j', (text, repeat, first) => {
    const ds = dups(text);
    expect(ds.map((d) => span(text, d))).toEqual([repeat]);
    expect(ds[0].related?.map((r) => text.slice(r.start, r.end))).toEqual([first]);
    expect(ds[0].severity).toBe('warning');
  });

  it.each([
    'dataset any\n(a == 1 or b == 2) and (a == 1 and b == 2)',
    'dataset any\n(a == 1 or b == 2) and (a == 1 or b == 3)',
    'dataset any\n(a == 1 or b == 2) and (a == 1 or b == 2 or c == 3)',
    'dataset any\n(a == 1 or b == 2) and (a == 1 or b == "2")',
    'dataset any\n(a == 1 or b == 2) and not (a == 1 or b == 2)',
  ])('different groups are no duplicates: %j', (text) => {
    expect(dups(text)).toEqual([]);
  });

  it('in a filter document: the repeated group object is pointed at by its path', () => {
    const text = JSON.stringify({
      where: {
        and: [
          { or: [{ key: 'a', operator: 'eq', value: 1 }, { key: 'b', operator: 'eq', value: 2 }] },
          { or: [{ key: 'b', operator: 'eq', value: 2 }, { key: 'a', operator: 'eq', value: 1 }] },
        ],
      },
    });
    const r = check(text, { dataset: 'any' });
    const d = r.diagnostics.filter((x) => x.code === 'duplicate-condition');
    expect(d.map((x) => x.path)).toEqual([['where', 'and', 1]]);
    expect(JSON.parse(text.slice(d[0].start, d[0].end))).toEqual(JSON.parse(text).where.and[1]);
  });

  it.each([
    // [text, the text after the fix (null: only its meaning is checked), the filter it means]
    ['dataset any\n(a == 1 or b == 2) and (b == 2 or a == 1)', 'dataset any\n(a == 1 or b == 2)', '(a == 1 or b == 2)'],
    ['dataset any\n(a == 1 or b == 2) and c == 3 and (b == 2 or a == 1) and d == 4', 'dataset any\n(a == 1 or b == 2) and c == 3 and d == 4', '(a == 1 or b == 2) and c == 3 and d == 4'],
    ['dataset any\n(a == 1 or b == 2) # first\nand (b == 2\nor a == 1) # second\nand d == 4', null, '(a == 1 or b == 2) and d == 4'],
    ['dataset any\n(b == 2 or a == 1) and\n# why\n(a == 1 or b == 2)\n', null, '(b == 2 or a == 1)'],
    ['dataset any\n(a != 1 or b != 2) and not (a == 1 and b == 2)', 'dataset any\n(a != 1 or b != 2)', '(a != 1 or b != 2)'],
  ])('the quick fix removes the repeated group with its joining word (%j)', (text, want, means) => {
    const d = dups(text)[0];
    const fix = d.fixes?.find((f) => f.title === 'Remove the duplicate condition');
    expect(fix).toBeDefined();
    const out = applyEdits(text, fix!.edits);
    if (want !== null) expect(out).toBe(want);
    const r = compile(out);
    expect(r.diagnostics).toEqual([]);
    expect(r.json).toBe(compile(`dataset any\n${means}`).json);
    for (const c of text.match(/#[^\n]*/g) ?? []) expect(out).toContain(c);
  });
});
