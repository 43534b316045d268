/**
 * Bad input gets a clear answer: an unexpected character that cannot be seen (a zero-width space, a line or
 * paragraph separator, a thin space pasted from a web page) is named by its code point in the syntax diagnostic,
 * so the message says what to delete; printed as itself it read `unexpected character " "`. Visible
 * characters are still shown as they are.
 */
import { describe, expect, it } from 'vitest';
import { compile, parseRule } from '@logfilter/core';

describe('unexpected characters are named', () => {
  it.each([
    ['\u200b', 'U+200B'],
    ['\u2028', 'U+2028'],
    ['\u2009', 'U+2009'],
    ['\u0007', 'U+0007'],
  ])('%j in a filter: syntax at its offset, the message names %s', (ch, name) => {
    const src = `ClientCountry ==${ch}"us"`;
    const d = compile(src).diagnostics;
    expect(d.map((x) => [x.code, x.start, x.end])).toEqual([['syntax', 16, 17]]);
    expect(d[0].message).toContain(name);
  });

  it('a visible character is shown as it is', () => {
    const d = compile('ClientCountry == "us" $').diagnostics;
    expect(d.map((x) => [x.code, x.start, x.end])).toEqual([['syntax', 22, 23]]);
    expect(d[0].message).toContain('"$"');
  });

  it('the rules language names them the same way', () => {
    const d = parseRule('http.host eq\u200b"a"').diagnostics.filter((x) => x.code === 'rule-syntax');
    expect(d.map((x) => [x.start, x.end])).toEqual([[12, 13]]);
    expect(d[0].message).toContain('U+200B');
  });
});
