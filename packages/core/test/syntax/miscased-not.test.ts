/**
 * `not` written in another case where a condition starts: marked on the word, with a fix that writes it in lower
 * case (the word reads as a field name, so the parse would otherwise stop on the field after it).
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';

describe('a mis-cased not', () => {
  it.each([
    ['Not ClientCountry == "us"', 0],
    ['ClientCountry == "us" and NOT BotScore < 30', 26],
    ['ClientCountry == "us" or (nOt BotScore < 30)', 26],
  ])('%s: one syntax diagnostic on the word, whose fix gives a filter that compiles', (source, at) => {
    const r = compile(source);
    expect(r.diagnostics.map((d) => [d.code, d.start, d.end])).toEqual([['syntax', at, at + 3]]);
    const edits = r.diagnostics[0]!.fixes?.[0]?.edits;
    expect(edits).toEqual([{ start: at, end: at + 3, newText: 'not' }]);
    const fixed = source.slice(0, at) + 'not' + source.slice(at + 3);
    expect(compile(fixed).ok).toBe(true);
  });

  it('leaves a field that happens to be called Not alone', () => {
    expect(compile('dataset any\nNot == 1').ok).toBe(true);
    expect(compile('not ClientCountry == "us"').ok).toBe(true);
  });
});
