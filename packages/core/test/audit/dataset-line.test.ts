/**
 * Acceptance audit of the dataset line (docs/language.md#grammar, #datasets): `dataset NAME`, NAME bare.
 * A quoted name (`dataset "http_requests"`, `` dataset `http_requests` ``) is one syntax error on the name, with a
 * fix that unquotes it; the name is still read, so the conditions below are checked against that dataset and no
 * other error follows (Chevrotain's recovery used to drop the name and read the next line's field as the dataset:
 * a bogus unknown-dataset and a second syntax error).
 */
import { describe, expect, it } from 'vitest';
import { compile } from '@logfilter/core';

const codes = (src: string) => compile(src).diagnostics.map((d) => [d.code, d.start, d.end]);

describe('dataset line', () => {
  it.each([
    ['dataset "http_requests"\nClientRequestHost == "x"'],
    ['dataset `http_requests`\nClientRequestHost == "x"'],
  ])('%j: one syntax error on the quoted name, the fix unquotes it', (src) => {
    const r = compile(src);
    expect(r.ok).toBe(false);
    expect(codes(src)).toEqual([['syntax', 8, 23]]);
    const fix = r.diagnostics[0].fixes?.[0];
    expect(fix?.edits).toEqual([{ start: 8, end: 23, newText: 'http_requests' }]);
  });

  it('the quoted name is still the dataset: fields are checked against it', () => {
    expect(codes('dataset "dns_logs"\nClientRequestHost == "x"')).toEqual([
      ['syntax', 8, 18],
      ['unknown-field', 19, 36],
    ]);
    expect(codes('dataset "nope"\nClientRequestHost == "x"')).toEqual([
      ['syntax', 8, 14],
      ['unknown-dataset', 8, 14],
    ]);
  });

  it('a bare name compiles; a missing name is one syntax error just after the keyword', () => {
    expect(compile('dataset dns_logs\nQueryName == "x"').ok).toBe(true);
    expect(codes('dataset\n')).toEqual([['syntax', 7, 7]]);
    expect(codes('dataset 5\nClientRequestHost == "x"')).toEqual([['syntax', 8, 9]]);
    expect(codes('dataset 1.5\nClientRequestHost == "x"')).toEqual([['syntax', 8, 11]]);
    // an unterminated quoted name is that one error, and names no dataset
    expect(codes('dataset "abc\nClientRequestHost == "x"')).toEqual([['syntax', 8, 12]]);
  });
});
