/**
 * Acceptance audit of the limits (docs/language.md#limits): at most 64 nested groups,
 * `not` counting nothing. The parser's own stack guard must not refuse what the language allows.
 */
import { describe, expect, it } from 'vitest';
import { compile, MAX_DEPTH } from '@logfilter/core';

const codes = (src: string) => compile(src, { dataset: 'any' }).diagnostics.map((d) => [d.code, d.start, d.end]);

describe('too-deep counts groups, not the nots in front of them', () => {
  it('64 groups each negated compile (not pushed down to one condition)', () => {
    const src = `${'not ('.repeat(MAX_DEPTH)}a == 1${')'.repeat(MAX_DEPTH)}`;
    const r = compile(src, { dataset: 'any' });
    expect(r.diagnostics).toEqual([]);
    expect(r.json).toBe('{"where":{"key":"a","operator":"eq","value":1}}');
  });
  it('65 negated groups: too-deep at the opening parenthesis of the 65th group', () => {
    const src = `${'not ('.repeat(MAX_DEPTH + 1)}a == 1${')'.repeat(MAX_DEPTH + 1)}`;
    const at = 'not ('.length * MAX_DEPTH + 'not '.length;
    expect(codes(src)).toEqual([['too-deep', at, at + 1]]);
  });
  it('64 negated groups that never close: diagnostics, no stack overflow', () => {
    const src = `${'not ('.repeat(MAX_DEPTH)}a == and b ) ) ( = x`;
    const r = compile(src, { dataset: 'any' });
    expect(r.ok).toBe(false);
    expect(r.diagnostics.every((d) => d.code === 'syntax')).toBe(true);
  });
});
