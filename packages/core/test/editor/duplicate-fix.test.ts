/**
 * The quick fix of a duplicate condition removes it with its joining `and`/`or` and nothing else: the filter
 * it leaves is the filter without that one condition, and every comment stays, whatever lies between the
 * conditions (comments, line breaks, `and`/`or` written inside a comment).
 */
import { describe, expect, it } from 'vitest';
import { applyEdits, compile } from '../../src/index.js';

function fixed(text: string): string | undefined {
  const d = compile(text).diagnostics.find((x) => x.code === 'duplicate-condition');
  const fix = d?.fixes?.find((f) => f.title === 'Remove the duplicate condition');
  return fix ? applyEdits(text, fix.edits) : undefined;
}

describe('Remove the duplicate condition', () => {
  it.each([
    // [text, the filter it must compile to after the fix]
    ['ClientCountry == "us" # first\nand ClientCountry == "us" and EdgeResponseStatus >= 500\n', 'ClientCountry == "us" and EdgeResponseStatus >= 500'],
    ['ClientCountry == "us" # first\nand ClientCountry == "us" # dup\nand EdgeResponseStatus >= 500\n', 'ClientCountry == "us" and EdgeResponseStatus >= 500'],
    ['(ClientCountry == "us" # first\nor ClientCountry == "us") and EdgeResponseStatus >= 500\n', '(ClientCountry == "us") and EdgeResponseStatus >= 500'],
    ['ClientCountry == "us" and # note: this or\nClientCountry == "us"\n', 'ClientCountry == "us"'],
    ['ClientCountry == "us" and # mid\nClientCountry == "us" and EdgeResponseStatus >= 500\n', 'ClientCountry == "us" and EdgeResponseStatus >= 500'],
    ['EdgeResponseStatus >= 500 or ClientCountry == "us" # why\nor ClientCountry == "us" # again\n', 'EdgeResponseStatus >= 500 or ClientCountry == "us"'],
  ])('%j keeps the rest of the filter and every comment', (text, want) => {
    const out = fixed(text);
    expect(out).toBeDefined();
    const r = compile(out!);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.json).toBe(compile(want).json);
    for (const c of text.match(/#[^\n]*/g) ?? []) expect(out).toContain(c);
  });

  it.each([
    ['ClientCountry == "us"\nand ClientCountry == "us"\n', 'ClientCountry == "us"\n'],
    ['ClientCountry == "us" and EdgeResponseStatus >= 500 and ClientCountry == "us"', 'ClientCountry == "us" and EdgeResponseStatus >= 500'],
    ['EdgeResponseStatus >= 500 or (ClientCountry == "us" or EdgeResponseStatus >= 500)', 'EdgeResponseStatus >= 500 or (ClientCountry == "us")'],
  ])('without comments, the text as before (%j)', (text, want) => {
    expect(fixed(text)).toBe(want);
  });
});
