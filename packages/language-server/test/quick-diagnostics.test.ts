/**
 * A large filter's edited region checked on its own: the diagnostics equal those of a whole check of the new
 * text (whole-filter codes aside, which the whole check that follows gives), and edits that cannot be judged
 * alone (an open parenthesis across the region, the dataset line, an unclosed string) are left to it.
 */
import { describe, expect, it } from 'vitest';
import { compile, type Diagnostic } from '@logfilter/core';
import { quickDiagnostics, type Checked } from '../src/quick-diagnostics.js';

const WHOLE = new Set(['too-many-operators', 'too-large', 'empty-filter', 'duplicate-condition', 'too-deep']);
const local = (ds: readonly Diagnostic[]) => ds.filter((d) => !WHOLE.has(d.code)).map((d) => [d.code, d.start, d.end]);
const lines = Array.from({ length: 300 }, (_, i) => `or (ClientRequestHost == "h${i}.example.com" and EdgeResponseStatus >= ${400 + (i % 100)})`);
lines[0] = lines[0]!.slice(3);
const base = `dataset http_requests\n# many hosts\n${lines.join('\n')}\nor ClientReqestHost == "typo"\n`;
const checked = (text: string): Checked => {
  const r = compile(text);
  return { version: 1, text, diagnostics: r.diagnostics, dataset: r.dataset };
};
const edit = (text: string, find: string, replace: string) => {
  const at = text.indexOf(find);
  return text.slice(0, at) + replace + text.slice(at + find.length);
};

describe('quickDiagnostics', () => {
  it.each([
    ['a field misspelt mid-file', 'ClientRequestHost == "h150.', 'ClientRequestHots == "h150.'],
    ['a value of the wrong type', 'EdgeResponseStatus >= 450)', 'EdgeResponseStatus >= "x")'],
    ['a syntax error', 'and EdgeResponseStatus >= 420)', 'and EdgeResponseStatus >= )'],
    ['a typo fixed', 'ClientReqestHost', 'ClientRequestHost'],
    ['a line inserted', 'or (ClientRequestHost == "h207.', 'or BotScore < 5\nor (ClientRequestHost == "h207.'],
    ['a line removed', 'or (ClientRequestHost == "h209.example.com" and EdgeResponseStatus >= 409)\n', ''],
  ])('%s: equals the whole check', (_name, find, replace) => {
    const next = edit(base, find, replace);
    const q = quickDiagnostics(checked(base), next);
    expect(q).toBeDefined();
    expect(local(q!.kept)).toEqual(local(compile(next).diagnostics));
  });

  it('chains: quick after quick equals the whole check', () => {
    const one = edit(base, 'ClientRequestHost == "h150.', 'ClientRequestHots == "h150.');
    const q1 = quickDiagnostics(checked(base), one)!;
    const two = edit(one, 'EdgeResponseStatus >= 460)', 'EdgeResponseStatus >= "y")');
    const q2 = quickDiagnostics({ version: 2, text: one, diagnostics: q1.kept, dataset: 'http_requests' }, two)!;
    expect(local(q2.kept)).toEqual(local(compile(two).diagnostics));
  });

  it.each([
    ['an open parenthesis across lines', 'or (ClientRequestHost == "h20.', 'or ((ClientRequestHost == "h20.'],
    ['the dataset line', 'dataset http_requests', 'dataset dns_logs'],
    ['an unclosed string', '"h30.example.com"', '"h30.example.com'],
  ])('%s: left to the whole check', (_name, find, replace) => {
    expect(quickDiagnostics(checked(base), edit(base, find, replace))).toBeUndefined();
  });
});

describe('quickDiagnostics and the limits', () => {
  const big = `${Array.from({ length: 60 }, (_, i) => `${i ? 'or ' : ''}BotScore < ${i}`).join('\n')}\n`;
  it('keeps a limit placed before the region, and leaves an edit before or at its place to the whole check', () => {
    const next = edit(big, 'BotScore < 50', 'BotScroe < 50');
    const q = quickDiagnostics(checked(big), next);
    expect(q).toBeDefined();
    const whole = compile(next).diagnostics;
    expect(q!.kept.filter((d) => d.code === 'too-many-operators').map((d) => [d.start, d.end])).toEqual(whole.filter((d) => d.code === 'too-many-operators').map((d) => [d.start, d.end]));
    expect(local(q!.kept)).toEqual(local(whole));
    expect(quickDiagnostics(checked(big), edit(big, 'BotScore < 3\n', 'BotScore < 3 or BotScore < 99\n'))).toBeUndefined();
  });

  it('leaves to the whole check an edit that may bring a filter under the limits over them', () => {
    const small = `${Array.from({ length: 10 }, (_, i) => `${i ? 'or ' : ''}BotScore < ${i}`).join('\n')}\n`;
    expect(quickDiagnostics(checked(small), edit(small, 'BotScore < 5\n', 'BotScore < 5 and BotScore > 1\n'))).toBeUndefined();
    expect(quickDiagnostics(checked(small), edit(small, 'BotScore < 5\n', 'BotScroe < 5\n'))).toBeDefined();
  });
});
