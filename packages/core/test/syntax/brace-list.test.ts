/**
 * A list written in braces (`in {"us", "ca"}`, as other languages write sets): one syntax error over the
 * braces-list, `{` to `}`, whose fix writes it in square brackets. The condition is read as the bracket form
 * is, so there is no in-needs-list on top of it, and what follows it is still parsed and checked.
 */
import { describe, expect, it } from 'vitest';
import { applyEdits, compile } from '../../src/index.js';

const found = (source: string) => compile(source).diagnostics.map((d) => [d.code, d.start, d.end]);

describe('a list written in braces', () => {
  it.each([
    ['ClientCountry in {"us"}', 17, 23],
    ['ClientCountry in {"us", "ca"}', 17, 29],
    ['ClientCountry in {"us", "ca",}', 17, 30],
    ['EdgeResponseStatus in {1, 2}', 22, 28],
    ['EdgeResponseStatus in {-1}', 22, 26],
    ['ClientCountry not in {"us"}', 21, 27],
    ['ClientCountry !in {"us", "ca"}', 18, 30],
    ['ClientRequestHost startsWith "a" and ClientCountry in {"us"}', 54, 60],
    ['ClientCountry in {\n  "us",\n  "ca"\n}', 17, 35],
  ])('%s: one syntax error over the braces-list, whose fix compiles to the bracket form', (source, start, end) => {
    const r = compile(source);
    expect(r.diagnostics.map((d) => [d.code, d.start, d.end])).toEqual([['syntax', start, end]]);
    const fix = r.diagnostics[0]!.fixes?.[0];
    expect(fix?.edits).toEqual([
      { start, end: start + 1, newText: '[' },
      { start: end - 1, end, newText: ']' },
    ]);
    const fixed = applyEdits(source, fix!.edits);
    const bracketForm = source.slice(0, start) + '[' + source.slice(start + 1, end - 1) + ']' + source.slice(end);
    expect(fixed).toBe(bracketForm);
    const compiled = compile(fixed);
    expect(compiled.ok).toBe(true);
    expect(compiled.json).toBe(compile(bracketForm).json);
  });

  it.each([
    // the condition after it is checked: a field not in the dataset is still reported
    ['ClientCountry in {"us"} and BotScore < 30', [['syntax', 17, 23]]],
    ['ClientCountry in {"us"} and Foo < 30', [['syntax', 17, 23], ['unknown-field', 28, 31]]],
    ['BotScore < 30 or ClientCountry in {"us", "ca"} or Foo == 1', [['syntax', 34, 46], ['unknown-field', 50, 53]]],
    // and so is its own field and its items, as in the bracket form
    ['Foo in {"us"}', [['unknown-field', 0, 3], ['syntax', 7, 13]]],
    ['ClientCountry in {1}', [['syntax', 17, 20], ['value-type', 18, 19]]],
    // an empty list in braces is the bracket form's empty list too
    ['ClientCountry in {}', [['syntax', 17, 19], ['empty-list', 17, 19]]],
    ['ClientCountry in { }', [['syntax', 17, 20], ['empty-list', 17, 20]]],
    // a syntax error inside the braces keeps its own diagnostic
    ['ClientCountry in {"us" "ca"}', [['syntax', 17, 28], ['syntax', 23, 27]]],
  ] as const)('%s', (source, expected) => {
    expect(found(source)).toEqual(expected);
  });

  it.each([
    // not closed, or closed by `]`: the braces are unexpected characters, as before
    ['ClientCountry in {"us"', [['syntax', 17, 18], ['in-needs-list', 18, 22]]],
    ['ClientCountry in {"us"]', [['syntax', 17, 18], ['in-needs-list', 18, 22], ['syntax', 22, 23]]],
    // something else than list items between them, or braces where no value goes
    ['ClientCountry in {x}', [['syntax', 17, 18], ['syntax', 19, 20]]],
    ['{ClientCountry == "us"}', [['syntax', 0, 14], ['syntax', 22, 23]]],
  ] as const)('%s: other braces are reported as before', (source, expected) => {
    expect(found(source)).toEqual(expected);
  });
});
