/**
 * Strings are double-quoted (docs/language.md#lexical-rules). A single-quoted string, as SQL writes it, was two
 * syntax errors (one per quote, as unexpected characters) with no fix; it is one syntax error over the quoted
 * text, whose fix writes it in double quotes (or, before an operator, as a field name: bare or backquoted).
 */
import { describe, expect, it } from 'vitest';
import { compile } from '@logfilter/core';

const one = (src: string) => {
  const d = compile(src).diagnostics;
  return d.map((x) => [x.code, x.start, x.end, (x.fixes ?? []).map((f) => f.edits)]);
};

describe('single-quoted strings', () => {
  it.each([
    ["ClientCountry == 'us'", 17, 21, '"us"'],
    ["ClientCountry == 'us' and BotScore < 5", 17, 21, '"us"'],
    ["ClientCountry == 'us", 17, 20, '"us"'],
    ["ClientCountry in ['us']", 18, 22, '"us"'],
    ["ClientRequestPath == 'a\"b'", 21, 26, '"a\\"b"'],
    ["'ClientCountry' == \"us\"", 0, 15, 'ClientCountry'],
    ["'x-y' == 1", 0, 5, '`x-y`'],
  ])('%s: one syntax error at [%i, %i), fixed to %s', (src, start, end, newText) => {
    expect(one(src)).toEqual([['syntax', start, end, [[{ start, end, newText }]]]]);
  });

  it('the fix compiles', () => {
    expect(compile('ClientCountry == "us"').ok).toBe(true);
    expect(compile(`ClientCountry == "it's"`).ok).toBe(true);
  });
});
