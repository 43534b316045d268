/**
 * Acceptance audit of `duplicate-condition` (docs/language.md: the same condition twice in one and/or): an `in` list
 * is a set of values, so `x in ["us", "ca"]` and `x in ["ca", "us"]` (or `["us", "ca", "us"]`) are the same
 * condition on every log line, and the second is reported. The product compared lists in written order and passed
 * them silently. `--optimize` drops such a repeat as it drops any exact duplicate.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '@logfilter/core';

const C = 'ClientCountry';
const diags = (src: string) => compile(src).diagnostics.map((d) => [d.code, src.slice(d.start, d.end)]);

describe('duplicate-condition on in lists', () => {
  it.each([
    [`${C} in ["us", "ca"] or ${C} in ["ca", "us"]`, `${C} in ["ca", "us"]`],
    [`${C} in ["us", "ca"] and ${C} in ["ca", "us", "ca"]`, `${C} in ["ca", "us", "ca"]`],
    [`${C} not in ["us", "ca"] and ${C} not in ["ca", "us"]`, `${C} not in ["ca", "us"]`],
    [`EdgeResponseStatus in [500, 502] or EdgeResponseStatus in [502, 500]`, `EdgeResponseStatus in [502, 500]`],
  ])('%s: the repeat is reported', (src, at) => {
    expect(diags(src)).toEqual([['duplicate-condition', at]]);
  });

  it.each([
    `${C} in ["us", "ca"] or ${C} in ["us", "fr"]`,
    `${C} in ["us", "ca"] or ${C} not in ["ca", "us"]`,
    `EdgeResponseStatus in [500, 502] or EdgeResponseStatus in ["500", 502]`,
  ])('%s: different conditions, no warning', (src) => {
    expect(diags(src).filter((d) => d[0] === 'duplicate-condition')).toEqual([]);
  });

  it('--optimize drops the repeat', () => {
    const r = compile(`${C} in ["us", "ca"] and ${C} in ["ca", "us"]`, { optimize: true });
    expect(r.json).toBe('{"where":{"key":"ClientCountry","operator":"in","value":["us","ca"]}}');
  });
});
