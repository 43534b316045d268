/** The one way edits are applied (fixes, refactors, formatting): from the end backwards, in any order given. */
import { describe, expect, it } from 'vitest';
import { applyEdits, compile } from '../src/index.js';

describe('applyEdits', () => {
  it('applies non-overlapping edits given in any order', () => {
    const text = 'abcdef';
    const edits = [
      { start: 0, end: 1, newText: 'X' },
      { start: 3, end: 3, newText: '-' },
      { start: 4, end: 6, newText: '' },
    ];
    expect(applyEdits(text, edits)).toBe('Xbc-d');
    expect(applyEdits(text, [...edits].reverse())).toBe('Xbc-d');
    expect(applyEdits(text, [])).toBe(text);
  });

  it('applies a checker fix', () => {
    const text = 'EdgeResponseStatus in 500';
    const d = compile(text).diagnostics.find((x) => x.code === 'in-needs-list')!;
    const fixed = applyEdits(text, d.fixes![0]!.edits);
    expect(fixed).toBe('EdgeResponseStatus in [500]');
    expect(compile(fixed).ok).toBe(true);
  });
});
