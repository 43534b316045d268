/** The one bounded edit distance (lang/closest.ts), used by field, value and operator suggestions. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, closest, editDistance } from '../src/index.js';

/** Plain Levenshtein, written independently as the reference. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

describe('editDistance', () => {
  it('is Levenshtein distance, and max + 1 past the bound', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), fc.nat(8), (a, b, max) => {
        const exact = reference(a, b);
        expect(editDistance(a, b)).toBe(exact);
        expect(editDistance(a, b, max)).toBe(exact <= max ? exact : max + 1);
      }),
    );
  });

  it('suggests operators by it in JSON input, and nothing for a long unrelated word', () => {
    const op = (name: string) => check(JSON.stringify({ where: { key: 'BotScore', operator: name, value: 1 } })).diagnostics.find((d) => d.code === 'unknown-operator');
    expect(op('startWith')?.suggestions).toContain('startsWith');
    expect(op('x'.repeat(500))?.suggestions ?? []).toEqual([]);
  });
});

describe('closest', () => {
  it('orders names at the same distance by their lowercase code units, then their own, in every locale', () => {
    // no locale collation (the ICU collator it needs cost a cold language server tens of ms at its first
    // "did you mean"): `_` sorts before letters, and of two names equal but for case the uppercase one first
    expect(closest('abcd', ['abce', 'ab_d', 'Abcf', 'abcf', 'ABCG'])).toEqual(['ab_d', 'abce', 'Abcf']);
    expect(closest('abcd', ['abcf', 'Abcf'], 2)).toEqual(['Abcf', 'abcf']);
  });
});
