/**
 * A number in a filter document with a huge exponent (`170001e200000123456789`, `1e900000000`) is refused or
 * judged like any other value; `check` once wrote it out digit by digit to compare it (a string of 2^67 digits:
 * "Invalid string length", an internal error; 1e9 digits: a gigabyte and a hang). Found by fuzzing `check`.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../src/index.js';
import { canonicalFloat, MAX_EXPONENT } from '../../src/filter/util/values.js';

const cond = (v: string) => `{"key":"ClientRequestBytes","operator":"eq","value":${v}}`;

describe('numbers with exponents beyond the limit', () => {
  for (const v of ['170001e200000123456789', '1e900000000', '-2.5E-900000000', `1e${MAX_EXPONENT + 1}`]) {
    it(`check judges ${v} alone and twice without expanding it`, () => {
      for (const doc of [`{"where":${cond(v)}}`, `{"where":{"and":[${cond(v)},${cond(v)}]}}`]) {
        const r = check(doc);
        const codes = r.diagnostics.map((d) => d.code);
        expect(codes).toContain('value-type');
        const d = r.diagnostics.find((x) => x.code === 'value-type')!;
        expect([d.start, d.end]).toEqual([doc.indexOf(v), doc.indexOf(v) + v.length]);
      }
    });
  }

  it('the canonical text stays short beyond the limit and exact within it', () => {
    expect(canonicalFloat('170001e200000123456789').length).toBeLessThan(40);
    expect(canonicalFloat('1.50e2')).toBe('150.0');
    expect(canonicalFloat(`1e${MAX_EXPONENT}`)).toBe(`1${'0'.repeat(MAX_EXPONENT)}.0`);
    // Two spellings of one huge value are one value (duplicate detection compares these texts).
    expect(canonicalFloat('10e2000')).toBe(canonicalFloat('1.0e2001'));
  });
});
