/**
 * Acceptance audit of `--optimize` (docs/language.md#compilation): the operator count
 * before and after is reported, and the limits are judged on the optimized filter, the one that is sent.
 */
import { describe, expect, it } from 'vitest';
import { compile, DEFAULT_MAX_OPERATORS } from '@logfilter/core';

const statuses = (n: number) => Array.from({ length: n }, (_, i) => `EdgeResponseStatus == ${400 + i}`).join(' or ');

describe('optimize and the limits', () => {
  it('31 equalities are too many, merged into one in they are not', () => {
    const src = statuses(DEFAULT_MAX_OPERATORS + 1);
    expect(compile(src).diagnostics.map((d) => d.code)).toContain('too-many-operators');
    const r = compile(src, { optimize: true });
    expect(r.diagnostics).toEqual([]);
    expect(r.stats).toMatchObject({ operators: 1, operatorsBeforeOptimize: DEFAULT_MAX_OPERATORS + 1 });
    expect(JSON.parse(r.json!).where).toMatchObject({ key: 'EdgeResponseStatus', operator: 'in' });
  });
  it('the byte limit too: counted on the merged JSON', () => {
    const src = statuses(20);
    const r = compile(src, { optimize: true });
    expect(r.stats.bytes).toBe(Buffer.byteLength(r.json!, 'utf8'));
    expect(compile(src, { optimize: true, maxBytes: r.stats.bytes }).ok).toBe(true);
    expect(compile(src, { optimize: true, maxBytes: r.stats.bytes - 1 }).diagnostics.map((d) => d.code)).toEqual(['too-large']);
  });
});
