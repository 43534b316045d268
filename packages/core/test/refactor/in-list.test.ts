import { describe, expect, it } from 'vitest';
import { inListRefactors } from '../../src/filter/refactor/index.js';
import { applyEdits, compile, parse } from '../../src/index.js';

function apply(text: string, at = 0): string[] {
  const { file } = parse(text);
  return inListRefactors(file, text, at, at).map((f) => {
    return applyEdits(text, f.edits);
  });
}

describe('inListRefactors', () => {
  it.each([
    ['ClientCountry == "us" or ClientCountry == "ca"', 0, ['ClientCountry in ["us", "ca"]']],
    ['EdgeResponseStatus == 500 or EdgeResponseStatus == 502 or EdgeResponseStatus == 503', 5, ['EdgeResponseStatus in [500, 502, 503]']],
    ['ClientRequestHost == "a" and (ClientCountry == "us" or ClientCountry == "ca")', 40, ['ClientRequestHost == "a" and (ClientCountry in ["us", "ca"])']],
    ['ClientCountry != "us" and ClientCountry != "ca"', 0, ['ClientCountry not in ["us", "ca"]']],
    ['BotScore < 3 or ClientCountry == "us" or ClientCountry == "ca"', 20, ['BotScore < 3 or ClientCountry in ["us", "ca"]']],
  ])('%j', (text, at, expected) => {
    expect(apply(text, at)).toEqual(expected);
  });

  it.each([
    ['ClientCountry == "us" and ClientCountry == "ca"'],
    ['ClientCountry == "us" or ClientRequestHost == "ca"'],
    ['CacheReserveUsed == true or CacheReserveUsed == false'],
    ['ClientCountry == "us"'],
    ['ClientCountry == "us" or'],
  ])('offers nothing for %j', (text) => {
    expect(apply(text)).toEqual([]);
  });

  it('keeps the meaning: the compiled filter of the result is the optimiser-free equivalent', () => {
    const [out] = apply('ClientCountry == "us" or ClientCountry == "ca"');
    expect(compile(out).json).toBe('{"where":{"key":"ClientCountry","operator":"in","value":["us","ca"]}}');
  });

  it.each([
    ['ClientCountry == "us" or ClientCountry == "ca" # the second\nor ClientCountry == "de"', 0, ['ClientCountry in ["us", "ca"] # the second\nor ClientCountry == "de"']],
    ['ClientCountry == "us" or ClientCountry == "ca" # the second\nor ClientCountry == "de"', 60, []],
    ['ClientCountry == "us" # one\nor ClientCountry == "ca" # two\nor ClientCountry == "de" or ClientCountry == "fr"', 70, ['ClientCountry == "us" # one\nor ClientCountry == "ca" # two\nor ClientCountry in ["de", "fr"]']],
    ['ClientCountry != "us" and\n# keep this\nClientCountry != "ca"', 0, []],
  ])('never deletes a comment: a run of conditions ends at a comment between two of them (%j)', (text, at, expected) => {
    expect(apply(text, at)).toEqual(expected);
  });

  it.each([
    ['ClientCountry eq "us" or ClientCountry == "us"', 0, ['ClientCountry in ["us"]']],
    ['EdgeResponseStatus == 500 or EdgeResponseStatus == 502 or EdgeResponseStatus == 0500', 0, ['EdgeResponseStatus in [500, 502]']],
    ['ClientCountry == "us" or ClientCountry == "ca" or ClientCountry == "\\u0075s"', 0, ['ClientCountry in ["us", "ca"]']],
  ])('lists each value once (%j): a duplicate condition is not merged into a list that repeats it', (text, at, expected) => {
    expect(apply(text, at)).toEqual(expected);
  });
});
