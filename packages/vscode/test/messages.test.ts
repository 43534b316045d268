// What the extension tells the user from the server's answers (no `vscode` needed).
import { describe, expect, it } from 'vitest';
import { budgetText, importFailure, sentences } from '../src/messages.js';

const at = (line: number, character: number) => ({ start: { line, character }, end: { line, character: character + 5 } });

describe('messages', () => {
  it('ends each sentence with one stop: a suggestion\u2019s question mark is not followed by a period', () => {
    expect(sentences('did you mean "!eq"?', 'Expected a filter')).toBe('did you mean "!eq"? Expected a filter.');
    expect(sentences('one.', '', 'two')).toBe('one. two.');
  });

  it('an import failure lists the problems with 1-based positions and what was expected', () => {
    const text = importFailure('Import Filter from JSON', 'clipboard', [
      { range: at(0, 30), severity: 1, code: 'unknown-operator', message: 'unknown operator "neq"; did you mean "!eq"?' },
      { range: at(2, 0), severity: 2, code: 'unknown-property', message: 'not read' },
    ]);
    expect(text).toContain('(1 problem(s))');
    expect(text).toContain('1:31 unknown-operator');
    expect(text).not.toContain('?.');
    expect(text).not.toContain('unknown-property');
  });

  it('marks a budget from the last parsed version as stale', () => {
    const r = { operators: 2, bytes: 120, maxOperators: 30, maxBytes: 1000 };
    expect(budgetText({ ...r, stale: false })).toBe('$(filter) 2/30 ops · 120/1000 B');
    expect(budgetText({ ...r, stale: true })).toBe('$(filter) 2/30 ops · 120/1000 B (stale)');
  });
});
