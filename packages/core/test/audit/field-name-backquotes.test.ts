/**
 * A field name outside the identifier form must be backquoted (docs/language.md#lexical-rules). Written bare where
 * a condition starts and before an operator (`my-field == 1`, `size.bytes > 5`), it was "unexpected character"
 * at the odd character, with no fix; now it is one syntax error over the whole name whose fix backquotes it.
 * Elsewhere an odd character is still an unexpected character.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '@logfilter/core';

const diags = (src: string) => compile(src, { dataset: 'any' }).diagnostics.map((d) => [d.code, src.slice(d.start, d.end), (d.fixes ?? []).map((f) => f.edits.map((e) => e.newText))]);

describe('bare field names that need backquotes', () => {
  it.each([
    ['my-field == 1', 'my-field'],
    ['my-field-x not in [1]', 'my-field-x'],
    ['size.bytes > 5 and a == 1', 'size.bytes'],
    ['not (é == 1)', 'é'],
    ['a == 1 or x-y startsWith "a"', 'x-y'],
    ['dataset any\nx$ contains "a"', 'x$'],
  ])('%j: one syntax error over %s, fixed with backquotes', (src, name) => {
    expect(diags(src)).toEqual([['syntax', name, [[`\`${name}\``]]]]);
    const fixed = src.replace(name, () => `\`${name}\``);
    expect(compile(fixed, { dataset: 'any' }).ok).toBe(true);
  });

  it.each([
    ['BotScore == - 5', '-'],
    ['a == 1 $', '$'],
    ['x.y', '.'],
  ])('%j: not a field position, still an unexpected character at %s', (src, ch) => {
    const d = diags(src).filter((x) => x[0] === 'syntax');
    expect(d[d.length - 1]).toEqual(['syntax', ch, []]);
  });
});
