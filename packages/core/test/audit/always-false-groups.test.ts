/**
 * Acceptance audit of `always-false` (docs/language.md: an `and` that can never hold): an `or` of `==`/`in` on one
 * single-valued field inside the `and` is a set of values like `in`, so `x == 1 and (x == 2 or x == 3)` can never hold
 * either. The product judged only the `and`'s own conditions and passed it silently. The range is the group that
 * closes the contradiction (or the condition, when the group came first); every case that can hold stays quiet,
 * and each flagged filter matches no line of a sample that covers the values.
 */
import { describe, expect, it } from 'vitest';
import { compile, createMatcher } from '@logfilter/core';

const S = 'EdgeResponseStatus';
const C = 'ClientCountry';
const diags = (src: string) => compile(src, { dataset: 'http_requests' }).diagnostics.map((d) => [d.code, src.slice(d.start, d.end)]);

describe('always-false with an or-group of values', () => {
  it.each([
    [`${S} == 1 and (${S} == 2 or ${S} == 3)`, `(${S} == 2 or ${S} == 3)`],
    [`(${S} == 2 or ${S} == 3) and ${S} == 1`, `${S} == 1`],
    [`${S} in [1, 4] and (${S} == 2 or ${S} in [3, 5])`, `(${S} == 2 or ${S} in [3, 5])`],
    [`${S} > 10 and (${S} == 2 or ${S} == 3)`, `(${S} == 2 or ${S} == 3)`],
    [`${S} != 2 and ${S} != 3 and (${S} == 2 or ${S} == 3)`, `(${S} == 2 or ${S} == 3)`],
    [`${C} == "us" and not (${C} != "ca" and ${C} != "fr")`, `not (${C} != "ca" and ${C} != "fr")`],
    [`(${C} == "us" or ${C} == "ca") and (${C} == "fr" or ${C} == "de")`, `(${C} == "fr" or ${C} == "de")`],
  ])('%s is always-false at %s', (src, at) => {
    expect(diags(src)).toEqual([['always-false', at]]);
    const m = createMatcher(JSON.parse(compile(src, { dataset: 'http_requests' }).json!));
    for (const v of [1, 2, 3, 4, 5, 11, 'us', 'ca', 'fr', 'de']) expect(m.test({ [S]: v, [C]: v })).toBe(false);
  });

  it.each([
    `${S} == 2 and (${S} == 2 or ${S} == 3)`,
    `${S} == 1 and (${S} == 2 or ${C} == "us")`,
    `${S} == 1 and (${S} == 2 or ${S} > 0)`,
    `${S} > 1 and (${S} == 2 or ${S} == 3)`,
    `${C} == "us" and (${C} == "ca" or ${C} == "us")`,
    // an array field: `in` holds for any element, two groups can both hold
    `SecurityRuleIDs contains "a" and (SecurityRuleIDs in ["b"] or SecurityRuleIDs in ["c"])`,
  ])('%s can hold: no always-false', (src) => {
    expect(diags(src).filter((d) => d[0] === 'always-false')).toEqual([]);
  });
});
