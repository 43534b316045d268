import { describe, expect, it } from 'vitest';
import { highlightTokens } from '../../src/filter/highlight/index.js';

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
      ['x', 'unknown-field', false],
      ['==', 'operator', false],
    ]);
  });

  it('leaves booleans and string escapes to the grammar (no class over them)', () => {
    const text = 'x == false or y == "a\\"b\\u00e9c\\\\" or z == "\\n"';
    const got = highlightTokens(text).map((t) => [text.slice(t.start, t.end), t.type]);
    expect(got.filter(([, type]) => type === 'string')).toEqual([
      ['"a', 'string'],
      ['b', 'string'],
      ['c', 'string'],
      ['"', 'string'],
      ['"', 'string'],
      ['"', 'string'],
    ]);
    expect(got.map(([image]) => image)).not.toContain('false');
  });

  it('skips what it cannot lex and never throws', () => {
    expect(highlightTokens('@@ x ?').map((t) => t.type)).toEqual(['unknown-field']);
    expect(highlightTokens('@@ x ?', 'any').map((t) => t.type)).toEqual(['field']);
    expect(highlightTokens('')).toEqual([]);
  });
});
