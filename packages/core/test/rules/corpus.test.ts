/**
 * The corpus of real expressions (test/fixtures/rules/corpus.jsonl, sources in SOURCES.md): each one gets
 * its published outcome, and the real API errors reproduce at the same line and column.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiLineColumn, checkRule, firstApiError, formatRule, type RuleKind } from '@logfilter/core';

interface Entry {
  expression: string;
  kind: RuleKind;
  phase?: string;
  expect: 'valid' | { errors: string[]; api?: string };
  source: string;
}

const entries: Entry[] = readFileSync(new URL('../../../../test/fixtures/rules/corpus.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Entry);

describe('corpus of real expressions', () => {
  it('has at least 200 expressions, each with a source', () => {
    expect(entries.length).toBeGreaterThanOrEqual(200);
    for (const e of entries) expect(e.source).toMatch(/\S/);
  });

  it.each(entries.map((e, i) => [i + 1, e] as const))('entry %i', (_, e) => {
    const result = checkRule(e.expression, { kind: e.kind, ...(e.phase ? { phase: e.phase } : {}) });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    if (e.expect === 'valid') {
      expect(errors.map((d) => `${d.code}@${d.start}`)).toEqual([]);
      // every valid expression formats, and the result formats to itself
      const once = formatRule(e.expression, { kind: e.kind });
      expect(once.ok).toBe(true);
      expect(formatRule(once.text, { kind: e.kind }).text).toBe(once.text);
      return;
    }
    expect(errors.map((d) => d.code)).toEqual(expect.arrayContaining(e.expect.errors));
    if (e.expect.api) {
      const first = firstApiError(result.diagnostics)!;
      const at = apiLineColumn(e.expression, first.api?.start ?? first.start);
      expect(`${at.line}:${at.column}`).toBe(e.expect.api);
    }
  });
});
