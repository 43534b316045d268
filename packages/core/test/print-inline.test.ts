/** printInline: an expression on one line, canonical spellings, only the parentheses precedence needs. */
import { describe, expect, it } from 'vitest';
import { parse, printInline } from '../src/index.js';

describe('printInline', () => {
  it('prints one line with canonical operators and the parentheses precedence needs', () => {
    const { file } = parse('dataset any\n((a eq 1)) or not (b !startsWith "x" and (c in [1,2] or d lt 3))');
    expect(printInline(file.expr!)).toBe('a == 1 or not (b not startsWith "x" and (c in [1, 2] or d < 3))');
  });
});
