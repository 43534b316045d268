/**
 * Found by the fuzzer: error recovery inside unclosed groups overflowed the stack at 235 unclosed `(` (195 levels
 * of `not (`), below the old cap of 400. Every depth now gives diagnostics, never an exception.
 */
import { describe, expect, it } from 'vitest';
import { compile, format, parse } from '@logfilter/core';

describe('unclosed nesting at every depth', () => {
  it.each([
    ['(', (n: number) => `${'('.repeat(n)}a == 1`],
    ['not (', (n: number) => `${'not ('.repeat(n)}a == 1`],
    ['( not', (n: number) => `${'( not '.repeat(n)}a == 1`],
    ['not', (n: number) => `${'not '.repeat(n)}(a == 1`],
  ])('%s repeated 60..600 times: diagnostics, no throw', (_name, make) => {
    for (let n = 60; n <= 600; n += 15) {
      const text = make(n);
      const r = compile(text, { dataset: 'any' });
      expect(r.ok).toBe(false);
      expect(r.diagnostics.length).toBeGreaterThan(0);
      expect(format(text).ok).toBe(false);
      expect(parse(text).diagnostics.length).toBeGreaterThan(0);
    }
  });
});
