/** createMatcher: one documented input (a filter document) and result ({test, fields}); a clear TypeError otherwise. */
import { describe, expect, it } from 'vitest';
import { compile, createMatcher } from '../../src/index.js';

const JSON_TEXT = '{"where":{"key":"ClientRequestHost","operator":"eq","value":"example.com"}}';

describe('createMatcher', () => {
  it('takes a filter document and returns {test, fields}', () => {
    for (const doc of [compile('ClientRequestHost == "example.com"\n').filter!, JSON.parse(JSON_TEXT)]) {
      const m = createMatcher(doc);
      expect(m.fields).toEqual(['ClientRequestHost']);
      expect(m.test({ ClientRequestHost: 'example.com' })).toBe(true);
      expect(m.test({ ClientRequestHost: 'other' })).toBe(false);
    }
  });

  it.each([
    ['the JSON text', JSON_TEXT],
    ['null', null],
    ['an array', []],
    ['an object without where', { filter: JSON_TEXT }],
  ])('refuses %s with a TypeError naming what it takes', (_, input) => {
    expect(() => createMatcher(input as never)).toThrow(TypeError);
    expect(() => createMatcher(input as never)).toThrow(/filter document/);
  });
});
