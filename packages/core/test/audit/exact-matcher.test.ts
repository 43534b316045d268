/**
 * The core README's advice for `createMatcher`: `exactFilter(compile(src).json)` keeps integers beyond 2^53
 * exact, where `compile(src).filter` rounds them (9007199254740993 becomes …992).
 */
import { describe, expect, it } from 'vitest';
import { compile, createMatcher, exactFilter, parseExact } from '../../src/index.js';

describe('createMatcher with integers beyond 2^53', () => {
  const src = 'dataset http_requests\nClientRequestBytes == 9007199254740993\n';
  const line = (n: string) => parseExact(`{"ClientRequestBytes":${n}}`, ['ClientRequestBytes']);

  it('exactFilter(compile(src).json) matches the exact value only', () => {
    const m = createMatcher(exactFilter(compile(src).json!));
    expect(m.test(line('9007199254740993'))).toBe(true);
    expect(m.test(line('9007199254740992'))).toBe(false);
  });

  it('compile(src).filter has rounded it (why the README says so)', () => {
    const m = createMatcher(compile(src).filter!);
    expect(m.test(line('9007199254740993'))).toBe(false);
  });
});
