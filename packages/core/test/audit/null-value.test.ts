/**
 * `x == null` is a syntax error (the language has no null: docs/language.md, evaluation, "absent and null"). The
 * hint used to offer a fix writing the string "null", which compiles but means something else (the text n-u-l-l);
 * now the error has no fix and says what a missing or null field does instead. Other bare words after an operator
 * still get the quoting fix.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '@logfilter/core';

describe('null as a value', () => {
  it.each(['ClientRequestHost == null', 'ClientRequestHost != null', 'ClientRequestHost in [null]'])('%s: one syntax error, no fix', (src) => {
    const d = compile(src).diagnostics;
    const at = src.indexOf('null');
    expect(d.map((x) => [x.code, x.start, x.end])).toEqual([['syntax', at, at + 4]]);
    expect(d[0].fixes ?? []).toEqual([]);
  });

  it('a list holding only a bad word is that syntax error, not also empty-list', () => {
    expect(compile('ClientCountry in [us]').diagnostics.map((x) => [x.code, x.start, x.end])).toEqual([['syntax', 18, 20]]);
    expect(compile('ClientCountry in []').diagnostics.map((x) => [x.code, x.start, x.end])).toEqual([['empty-list', 17, 19]]);
  });

  it('a bare word still gets the quoting fix', () => {
    const d = compile('ClientRequestHost == us').diagnostics;
    expect(d[0].fixes?.[0].edits).toEqual([{ start: 21, end: 23, newText: '"us"' }]);
  });
});
