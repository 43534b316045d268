import { describe, expect, it } from 'vitest';
import { highlightTokens } from '../../src/highlight/index.js';

describe('highlightTokens', () => {
  it('classifies every token kind', () => {
    const text = 'dataset http_requests # c\nCacheResponseStatus >= 500 and not ClientIP in ["a"] or x == true';
    const got = highlightTokens(text).map((t) => [text.slice(t.start, t.end), t.type, t.deprecated ?? false]);
    expect(got).toEqual([
      ['dataset', 'keyword', false],
      ['http_requests', 'dataset', false],
      ['# c', 'comment', false],
      ['CacheResponseStatus', 'field', true],
      ['>=', 'operator', false],
      ['500', 'number', false],
      ['and', 'keyword', false],
      ['not', 'keyword', false],
      ['ClientIP', 'field', false],
      ['in', 'operator', false],
      ['"a"', 'string', false],
      ['or', 'keyword', false],
      ['x', 'field', false],
      ['==', 'operator', false],
      ['true', 'keyword', false],
    ]);
  });

  it('skips what it cannot lex and never throws', () => {
    expect(highlightTokens('@@ x ?').map((t) => t.type)).toEqual(['field']);
    expect(highlightTokens('')).toEqual([]);
  });
});
