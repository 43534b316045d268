/**
 * Acceptance audit of `always-false` (docs/language.md, `always-false`: an `and` that can never hold): on a field the schema
 * says holds one string, the string operators contradict each other and `==` too. The product judged only
 * `==`/`in`/`!=` and the numeric range, so `ClientRequestPath startsWith "/a" and ClientRequestPath startsWith
 * "/b"` passed silently. Every case that can hold stays quiet; the range points at the condition that closes
 * the contradiction.
 */
import { describe, expect, it } from 'vitest';
import { compile, createMatcher } from '@logfilter/core';

const P = 'ClientRequestPath';
const codes = (src: string) => compile(src, { dataset: 'http_requests' }).diagnostics.map((d) => d.code);

describe('always-false on a string field', () => {
  it.each([
    `${P} startsWith "/a" and ${P} startsWith "/b"`,
    `${P} endsWith ".js" and ${P} endsWith ".css"`,
    `${P} == "/a" and ${P} startsWith "/b"`,
    `${P} == "/a" and ${P} endsWith "x"`,
    `${P} == "/a" and ${P} contains "zz"`,
    `${P} in ["/a", "/b"] and ${P} startsWith "/c"`,
    `${P} == "/api/x" and ${P} not startsWith "/api"`,
    `${P} == "/api/x" and ${P} not contains "pi"`,
    `${P} startsWith "/api/v1" and ${P} not startsWith "/api"`,
    `${P} endsWith ".min.js" and ${P} not endsWith ".js"`,
    `${P} contains "admin" and ${P} not contains "min"`,
    `${P} startsWith "/admin" and ${P} not contains "adm"`,
    `not (${P} not startsWith "/a" or ${P} not startsWith "/b")`,
  ])('%s', (src) => {
    expect(codes(src)).toEqual(['always-false']);
    const d = compile(src, { dataset: 'http_requests' }).diagnostics[0]!;
    // and the evaluator agrees: no value built from the filter's own strings (nor absent, null, a number) passes
    const lits = [...src.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
    const values: unknown[] = [undefined, null, 5, '', ...lits, ...lits.flatMap((a) => lits.map((b) => a + b))];
    const m = createMatcher(compile(src, { dataset: 'http_requests' }).filter!);
    for (const v of values) expect(m.test(v === undefined ? {} : { [P]: v })).toBe(false);
    // the second condition closes it
    expect(d.start).toBeGreaterThan(src.indexOf(' and ') > 0 ? src.indexOf(' and ') : src.indexOf(' or '));
  });

  it.each([
    `${P} startsWith "/a" and ${P} startsWith "/ab"`,
    `${P} endsWith ".js" and ${P} endsWith ".min.js"`,
    `${P} == "/ab" and ${P} startsWith "/a" and ${P} endsWith "b" and ${P} contains "a"`,
    `${P} in ["/a", "/b"] and ${P} startsWith "/b"`,
    `${P} startsWith "/a" and ${P} endsWith ".js" and ${P} contains "x"`,
    `${P} startsWith "/api" and ${P} not startsWith "/api/v1"`,
    `${P} contains "min" and ${P} not contains "admin"`,
    `${P} startsWith "/a" or ${P} startsWith "/b"`,
    `${P} == "/a" and ${P} not startsWith "/b"`,
  ])('can hold: %s', (src) => {
    expect(codes(src)).toEqual([]);
  });

  it('judges only fields known to hold one string: array fields, timestamps and unknown datasets stay quiet', () => {
    expect(codes('BotDetectionTags contains "a" and BotDetectionTags contains "b"')).toEqual([]);
    expect(compile('x startsWith "a" and x startsWith "b"', { dataset: 'any' }).diagnostics.map((d) => d.code)).toEqual([]);
    expect(codes('EdgeStartTimestamp startsWith "2024" and EdgeStartTimestamp startsWith "2025"')).toEqual([]);
  });
});

describe('negations alone never contradict: they all hold on a line without the field', () => {
  it.each([
    `${P} not startsWith "" and ${P} not contains ""`,
    `${P} not endsWith "" and ${P} not startsWith "/a"`,
    `${P} != "/a" and ${P} not startsWith ""`,
  ])('%s', (src) => {
    expect(codes(src)).toEqual([]);
  });
});

it('a numeric string with == also matches the log number, on which the string negations hold', () => {
  expect(codes(`${P} == "5" and ${P} not startsWith "5"`)).toEqual([]);
  expect(codes(`${P} == "5" and ${P} startsWith "6"`)).toEqual(['always-false']);
});
