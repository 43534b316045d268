/**
 * Hostile sizes: 1 MB of input, 100,000 nested parentheses, a 100 KB string literal. Each gives
 * diagnostics (or a result), no crash and no stack overflow. Their speed is measured in
 * bench/compile.bench.mjs, not here.
 */
import { describe, expect, it } from 'vitest';
import { check, compile, decompile, format } from '@logfilter/core';
import { createValidatedLexer } from '../src/filter/syntax/tokens.js';
import { createValidatedParser } from '../src/filter/syntax/parser.js';

describe('grammar', () => {
  it("passes Chevrotain's validations (they are skipped at start-up)", () => {
    expect(() => createValidatedLexer()).not.toThrow();
    expect(() => createValidatedParser()).not.toThrow();
  });
});

// Each case is seconds of CPU at the sizes the limits are about (1 MB, 100,000 levels): shrinking them would
// test less, so they get their own budget instead of the default 20 s, which a loaded 2-core machine exceeds.
describe('robustness', { timeout: 180_000 }, () => {
  it('1 MB of valid conditions: over the limits, diagnosed, not crashed', () => {
    const src = 'ClientRequestHost == "api.example.com" or EdgeResponseStatus >= 500\nor '.repeat(14_200) + 'BotScore < 30';
    expect(src.length).toBeGreaterThan(1_000_000);
    const r = compile(src);
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(['too-many-operators', 'too-large']));
    expect(r.stats.operators).toBe(28_401);
  });
  it.each(['((( == ]] "a\n', 'a == b c ) or\n', 'x in [1, 2 or\n', 'a == 1 and and\n'])('1 MB of noise (%j) gets a bounded number of syntax diagnostics', (unit) => {
    const src = unit.repeat(Math.ceil(1_050_000 / unit.length));
    const r = compile(src);
    expect(r.ok).toBe(false);
    expect(r.diagnostics.length).toBeGreaterThan(0);
    expect(r.diagnostics.length).toBeLessThanOrEqual(200);
    expect(r.diagnostics.every((d) => d.start >= 0 && d.end <= src.length)).toBe(true);
    expect(format(src).ok).toBe(false);
  });
  it('a mid-sized text with many errors reports each of them, up to the cap', () => {
    const src = 'a == and\n'.repeat(40);
    const r = compile(src, { dataset: 'any' });
    expect(r.diagnostics.filter((d) => d.code === 'syntax').length).toBeGreaterThanOrEqual(20);
  });
  it('100,000 nested parentheses: too-deep at the 65th, no stack overflow', () => {
    const src = `${'('.repeat(100_000)}a == 1${')'.repeat(100_000)}`;
    const r = compile(src, { dataset: 'any' });
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => [d.code, d.start, d.end])).toEqual([['too-deep', 64, 65]]);
  });
  it('65 nested groups are too deep, 64 are fine', () => {
    const ok = compile(`${'('.repeat(64)}a == 1${')'.repeat(64)}`, { dataset: 'any' });
    expect(ok.ok).toBe(true);
    const deep = compile(`${'('.repeat(65)}a == 1${')'.repeat(65)}`, { dataset: 'any' });
    expect(deep.diagnostics.map((d) => [d.code, d.start, d.end])).toEqual([['too-deep', 64, 65]]);
  });
  it('100,000 chained nots and unclosed parentheses: diagnostics, no overflow', () => {
    expect(compile(`${'not '.repeat(100_000)}a == 1`, { dataset: 'any' }).ok).toBe(false);
    expect(compile('('.repeat(100_000), { dataset: 'any' }).ok).toBe(false);
  });
  it('a 100 KB string literal compiles', () => {
    const big = 'x'.repeat(100_000);
    const r = compile(`dataset any\na == "${big}"`, { maxBytes: 200_000 });
    expect(r.ok).toBe(true);
    expect(r.stats.bytes).toBe(100_048);
    const u = compile(`dataset any\na == "${big}`);
    expect(u.diagnostics.map((d) => d.code)).toEqual(['syntax']);
  });
  it('deeply nested JSON gets a diagnostic from check and decompile', () => {
    const deep = `{"where":${'{"and":['.repeat(50_000)}${']}'.repeat(50_000)}}`;
    expect(check(deep).ok).toBe(false);
    expect(decompile(deep).ok).toBe(false);
    const deepArr = '['.repeat(100_000);
    expect(decompile(deepArr).ok).toBe(false);
  });
});
