/**
 * Acceptance audit of the formatter (docs/language.md#decompiling-and-formatting): long filters are broken one
 * condition per line; a short one stays on one line, also when a comment ends it. Formatting is idempotent and
 * keeps the meaning.
 */
import { describe, expect, it } from 'vitest';
import { compile, format } from '@logfilter/core';

describe('a comment at the end of a short filter keeps it on one line', () => {
  it.each([
    ['a == 1 and b == 2 # end', 'a == 1 and b == 2  # end\n'],
    ['a == 1   and (b == 2 or c == 3)    # why', 'a == 1 and (b == 2 or c == 3)  # why\n'],
    ['not (a == 1 or b == 2) # negated', 'not (a == 1 or b == 2)  # negated\n'],
    ['a == 1 or b == 2 # end\n# foot', 'a == 1 or b == 2  # end\n# foot\n'],
    // a comment inside the filter still breaks it where the comment is
    ['a == 1 # one\nand b == 2', 'a == 1  # one\nand b == 2\n'],
  ])('%j', (src, want) => {
    const text = `dataset any\n${src}`;
    const r = format(text);
    expect(r.ok).toBe(true);
    expect(r.text).toBe(`dataset any\n\n${want}`);
    expect(format(r.text!).text).toBe(r.text);
    expect(compile(r.text!).json).toBe(compile(text).json);
  });
  it('a filter too long for one line still breaks, the comment on its last line', () => {
    const long = 'ClientRequestHost == "aaaaaaaaaaaaaaaaaaaa.example.com" and ClientRequestPath startsWith "/bbbbbbbbbbbbbbbb"';
    expect(format(`${long} # end`).text).toBe('ClientRequestHost == "aaaaaaaaaaaaaaaaaaaa.example.com"\nand ClientRequestPath startsWith "/bbbbbbbbbbbbbbbb"  # end\n');
  });
});

describe('a file with a dataset line and comments but no condition yet keeps its comments where they are', () => {
  // a new file being written: `dataset x` then a to-do comment. Format-on-save moved the comment above the
  // dataset line; comments before the dataset line stay above it.
  it.each([
    ['dataset any\n# todo: the conditions\n', 'dataset any\n# todo: the conditions\n'],
    ['# header\ndataset any\n\n# todo\n# more\n', '# header\ndataset any\n# todo\n# more\n'],
    ['dataset any  # why\n# todo\n', 'dataset any  # why\n# todo\n'],
  ])('%j', (src, want) => {
    const r = format(src);
    expect(r.text).toBe(want);
    expect(format(r.text!).text).toBe(want);
  });
});
