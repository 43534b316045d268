/**
 * Acceptance audit of decompile on numbers only JSON can write (docs/language.md#decompiling-and-formatting):
 * an exponent is written out digit by digit, and only one beyond ±1000 is refused (`invalid-node`), also when
 * the number is past the double range (1E400 is a valid JSON number).
 */
import { describe, expect, it } from 'vitest';
import { check, compile, decompile } from '@logfilter/core';

const doc = (raw: string) => `{"where":{"key":"EdgeResponseCompressionRatio","operator":"gt","value":${raw}}}`;

describe('numbers with an exponent', () => {
  it.each([
    ['1E400', `1${'0'.repeat(400)}.0`],
    ['-2.5e1000', `-25${'0'.repeat(999)}.0`],
    ['1e-400', `0.${'0'.repeat(399)}1`],
  ])('%s is written out', (raw, written) => {
    const r = decompile(doc(raw));
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.source).toBe(`EdgeResponseCompressionRatio > ${written}\n`);
    expect(compile(r.source!, { maxBytes: 10_000 }).ok).toBe(true);
    expect(check(doc(raw), { maxBytes: 10_000 }).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
  it('an exponent beyond ±1000 is invalid-node at the number', () => {
    const text = doc('1e1001');
    const r = decompile(text);
    expect(r.diagnostics.map((d) => [d.code, d.start, d.end])).toEqual([['invalid-node', text.indexOf('1e1001'), text.indexOf('1e1001') + 6]]);
  });
});
