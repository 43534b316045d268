import { describe, expect, it } from 'vitest';
import { notRefactors } from '../../src/filter/refactor/index.js';
import { applyEdits, compile, parse } from '../../src/index.js';

function apply(text: string, at: number): string[] {
  const { file } = parse(text);
  return notRefactors(file, text, at, at).map((f) => {
    return applyEdits(text, f.edits);
  });
}

describe('notRefactors', () => {
  it.each([
    ['not (BotScore < 30)', 0, ['BotScore >= 30']],
    ['not ClientRequestPath startsWith "/a"', 2, ['ClientRequestPath not startsWith "/a"']],
    ['x == 1 and not (ClientCountry not in ["us"])', 12, ['x == 1 and ClientCountry in ["us"]']],
    ['not not (x == 1)', 0, ['(x == 1)']],
    ['not not (x == 1)', 5, ['(x == 1)', 'not x != 1']],
    ['not (a == 1 or b == 2)', 0, []],
    ['x == 1', 0, []],
  ])('%j at %i', (text, at, expected) => {
    const got = apply(text, at);
    expect(got).toEqual(expected);
    for (const g of got) expect(compile(g, { dataset: 'any' }).json).toBe(compile(text, { dataset: 'any' }).json);
  });

  it.each([
    ['not # why\n(BotScore < 30)', 0],
    ['not (BotScore < 30 # why\n)', 0],
    ['not not # why\n(x == 1)', 0],
    ['not # why\nnot (x == 1)', 0],
  ])('never deletes a comment (%j): no rewrite over one', (text, at) => {
    for (const g of apply(text, at)) expect(g).toContain('# why');
  });
});
