/**
 * Acceptance audit of string literals (docs/language.md#lexical-rules): a string that is cut off by a line break or
 * the end of the text right after a backslash is one `unterminated string` syntax error over the literal, like any
 * other unterminated string. The lexer's string token used to stop before such a backslash, which then gave a second
 * error (an unexpected character).
 */
import { describe, expect, it } from 'vitest';
import { compile } from '@logfilter/core';

const syntax = (src: string) => compile(src).diagnostics.map((d) => [d.code, d.start, d.end]);

describe('a backslash at the end of an unterminated string', () => {
  it.each([
    ['ClientRequestHost == "\\', 21, 23],
    ['ClientRequestHost == "ab\\', 21, 25],
    ['ClientRequestHost == "ab\\\\\\', 21, 27],
    ['ClientRequestHost == "ab\\\nand ClientCountry == "us"', 21, 25],
    ['ClientRequestHost == "ab\\\r\nand ClientCountry == "us"', 21, 25],
  ])('%j is one syntax error at [%i, %i)', (src, start, end) => {
    expect(syntax(src)).toEqual([['syntax', start, end]]);
  });

  it('an escaped backslash before the line end still ends in an unterminated string, one error', () => {
    expect(syntax('ClientRequestHost == "ab\\\\\nand ClientCountry == "us"')).toEqual([['syntax', 21, 26]]);
  });

  it('a bad escape before the cut is still reported at the escape', () => {
    expect(syntax('ClientRequestHost == "\\x\\')).toEqual([
      ['syntax', 21, 25],
      ['syntax', 22, 24],
    ]);
  });
});
