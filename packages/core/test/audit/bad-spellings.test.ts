/**
 * Acceptance audit (docs/language.md#operators, #lexical-rules): spellings other languages use (`=`, `<>`, `&&`, `||`,
 * `!`) are `syntax` errors that name the operator meant, with a fix that writes it.
 */
import { describe, expect, it } from 'vitest';
import { parse } from '@logfilter/core';

function firstSyntax(src: string) {
  const d = parse(src).diagnostics.find((x) => x.code === 'syntax')!;
  return { start: d.start, end: d.end, meant: d.fixes?.[0]?.edits[0]?.newText };
}

describe('operators of other languages name the one meant', () => {
  it.each([
    ['a <> 1', 2, 4, '!='],
    ['a == 1 or b<>"x"', 11, 13, '!='],
    ['a = 1', 2, 3, '=='],
    ['a == 1 && b == 2', 7, 9, 'and'],
    ['a == 1 || b == 2', 7, 9, 'or'],
    ['a ! 1', 2, 3, '!='],
    ['!(a == 1)', 0, 1, 'not'],
    ['a == 1 and !(b == 2 or c == 3)', 11, 12, 'not'],
    ['a == 1 or ! (b == 2)', 10, 11, 'not'],
    ['!ClientCountry == "us"', 0, 14, 'not ClientCountry'],
    ['a == 1 and !b in [2]', 11, 13, 'not b'],
    ['a !contain "x"', 2, 10, '!contains'],
    // a `!` where a condition starts is a `not`, whatever follows it: a field, a backquoted field, another not
    ['! ClientCountry == "us"', 0, 1, 'not'],
    ['a == 1 or ! b == 2', 10, 11, 'not'],
    ['a == 1 and ! `x-y` == 2', 11, 12, 'not'],
    ['a == 1 and ! not b == 2', 11, 12, 'not'],
  ])('%j: syntax at %i..%i, meant %j', (src, start, end, meant) => {
    expect(firstSyntax(src)).toEqual({ start, end, meant });
  });
  it.each([
    ['a startswith "x"', 2, 12, 'startsWith'],
    ['a ENDSWITH "x"', 2, 10, 'endsWith'],
    ['a Contains "x"', 2, 10, 'contains'],
    ['a not StartsWith "x"', 6, 16, 'startsWith'],
    ['a IN [1]', 2, 4, 'in'],
    ['a == 1 AND b == 2', 7, 10, 'and'],
  ])('an operator word in the wrong case, %j, names the word (%i..%i, %j)', (src, start, end, meant) => {
    expect(firstSyntax(src)).toEqual({ start, end, meant });
  });
  it.each([
    ['a neq 1', 2, 5, '!='],
    ['a NE "x"', 2, 4, '!='],
    ['a gte 5', 2, 5, '>='],
    ['a lte 5', 2, 5, '<='],
    ['a equals "x"', 2, 8, '=='],
  ])('an operator name of other tools, %j, names the operator meant (%i..%i, %j)', (src, start, end, meant) => {
    expect(firstSyntax(src)).toEqual({ start, end, meant });
  });
  it.each([
    ['ClientCountry == us', 17, 19, '"us"'],
    ['a == 1 or b != example_com and c == 2', 15, 26, '"example_com"'],
    ['a in [x]', 6, 7, undefined],
  ])('a bare word where a value goes, %j, is offered quoted (%i..%i, %j)', (src, start, end, meant) => {
    expect(firstSyntax(src)).toEqual({ start, end, meant });
  });
  it.each([
    ['eq == 1', 0, 2, '`eq`'],
    ['a == 1 and in == 2', 11, 13, '`in`'],
    ['startsWith != "x"', 0, 10, '`startsWith`'],
    ['a == 1 or true == false', 10, 14, '`true`'],
  ])('a keyword used as a field, %j, is told to be backquoted (%i..%i, %j)', (src, start, end, meant) => {
    expect(firstSyntax(src)).toEqual({ start, end, meant });
  });
  it('the symbols that are operators still lex as themselves', () => {
    for (const op of ['<', '<=', '>', '>=', '==', '!=']) expect(parse(`a ${op} 1`).diagnostics).toEqual([]);
    expect(parse('a < 1 and b > 2').diagnostics).toEqual([]);
  });
});
