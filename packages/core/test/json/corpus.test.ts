/**
 * Every filter of the research corpus (test/fixtures/corpus/filters.jsonl), as published. Record numbers are the
 * 1-based line numbers that SOURCES.md uses.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../../../../test/support/paths.js';
import type { Expr, ScalarValue } from '../../src/filter/ast.js';
import { isOperatorName } from '../../src/filter/operators.js';
import { readFilterInput, type ReadFilterResult } from '../../src/filter/json/index.js';
import { applyFix } from './helpers.js';

interface CorpusRecord {
  n: number;
  original: string;
  normalized?: string;
  format: string;
  filter: unknown;
  invalid?: boolean;
  error?: string;
  kind?: string;
}

const records: CorpusRecord[] = readFileSync(path.join(CORPUS, 'filters.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l, i) => ({ n: i + 1, ...JSON.parse(l) }));

/** The text a user would hand the reader: the JSON as found, with its escaping. */
function inputOf(r: CorpusRecord): string {
  if (r.normalized !== undefined) return r.normalized;
  // `filter = "..."`: the HCL string holds JSON-encoded text with JSON's own escapes, i.e. form 2.
  if (r.format.startsWith('HCL')) return r.original.slice(r.original.indexOf('"'), r.original.lastIndexOf('"') + 1);
  return r.original;
}

/** Escaped records are the inside of a JSON string (a job body's `filter`); with their quotes they are form 2. */
function quotedInputOf(r: CorpusRecord): string {
  return r.format.startsWith('JSON-string-escaped') && r.normalized === undefined ? `"${r.original}"` : inputOf(r);
}

function read(text: string): ReadFilterResult {
  const result = readFilterInput(text);
  for (const d of result.diagnostics) {
    expect(0 <= d.start && d.start <= d.end && d.end <= text.length, JSON.stringify(d)).toBe(true);
  }
  return result;
}

/** The filter JSON an AST stands for, to compare with the corpus's own parse of the record. */
function toFilter(e: Expr): unknown {
  const scalar = (v: ScalarValue) => (v.kind === 'int' || v.kind === 'float' ? Number(v.raw) : v.value);
  switch (e.kind) {
    case 'condition':
      return {
        key: e.field.name,
        operator: e.operator.spelling,
        value: e.value.kind === 'list' ? e.value.items.map(scalar) : scalar(e.value),
      };
    case 'and':
      return { and: e.items.map(toFilter) };
    case 'or':
      return { or: e.items.map(toFilter) };
    default:
      throw new Error(`no ${e.kind} node in JSON`);
  }
}

/** The corpus says the record is a complete filter the API's structure accepts. */
function structurallyValid(r: CorpusRecord): boolean {
  const f = r.filter as { where?: unknown } | null;
  if (!f || typeof f !== 'object' || !('where' in f)) return false;
  const ops = JSON.stringify(f).match(/"operator":"[^"]*"/g) ?? [];
  return ops.every((o) => isOperatorName(o.slice(12, -1))) && !(r.invalid && /missing|can't be set|invalid:/.test(r.error ?? ''));
}

describe('corpus', () => {
  it('has the 92 records', () => {
    expect(records).toHaveLength(92);
  });

  it.each(records.map((r) => [r.n, r]))('record %i gives an expression or an error', (_n, r) => {
    for (const text of new Set([inputOf(r), quotedInputOf(r)])) {
      const result = read(text);
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      expect(Boolean(result.expr) !== errors.length > 0, `${text}: ${JSON.stringify(result.diagnostics)}`).toBe(true);
    }
  });

  it.each(records.filter(structurallyValid).map((r) => [r.n, r]))('record %i reads as the corpus parsed it', (_n, r) => {
    const result = read(quotedInputOf(r));
    expect(result.diagnostics).toEqual([]);
    expect(toFilter(result.expr!)).toEqual((r.filter as { where: unknown }).where);
  });

  // The API's own messages (cloudflare-go validation) → our codes, at the node they name.
  it.each([
    [39, 'missing-value', ['where', 'and', 0]],
    [40, 'missing-key', ['where']],
    [41, 'missing-operator', ['where']],
    [42, 'missing-value', ['where']],
    [45, 'conflicting-keys', ['where', 'or']],
    [46, 'conflicting-keys', ['where', 'key']],
    [47, 'conflicting-keys', ['where', 'operator']],
    [48, 'conflicting-keys', ['where', 'value']],
    [49, 'missing-key', ['where', 'and', 1]],
    [51, 'conflicting-keys', ['where', 'key']],
    [52, 'conflicting-keys', ['where', 'operator']],
    [53, 'conflicting-keys', ['where', 'value']],
    [54, 'missing-key', ['where', 'or', 1]],
  ] as const)('record %i: %s at %j', (n, code, at) => {
    const r = records[n - 1];
    expect(r.invalid).toBe(true);
    const result = read(quotedInputOf(r));
    expect(result.expr).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.code, d.path])).toContainEqual([code, at]);
    // Nothing else, except that we name every missing part where the API stops at the first (record 41).
    expect(result.diagnostics.every((d) => d.code === code || (n === 41 && d.code === 'missing-value'))).toBe(true);
  });

  it.each([
    [23, ['operator'], 'leq'],
    [24, ['operator'], 'geq'],
    [26, ['where', 'and', 0, 'operator'], '!eq'],
    [36, ['where', 'and', 0, 'operator'], '!eq'],
    [59, ['where', 'and', 0, 'operator'], '!eq'],
    [91, ['where', 'and', 0, 'operator'], '!eq'],
  ] as const)('record %i: a misspelt operator at %j, suggesting %s', (n, at, canonical) => {
    const r = records[n - 1];
    const text = quotedInputOf(r);
    const result = read(text);
    const d = result.diagnostics.find((x) => x.code === 'unknown-operator')!;
    expect(d.path).toEqual(at);
    expect(d.suggestions).toEqual([canonical]);
    // The fix edits the text as found (escaped where the record is escaped) and removes the problem.
    const fixed = read(applyFix(text, d.fixes![0]));
    expect(fixed.diagnostics.map((x) => x.code)).not.toContain('unknown-operator');
  });

  it('record 92: greater_than and equals', () => {
    const result = read(records[91].original);
    expect(result.diagnostics.map((d) => [d.code, d.path, d.suggestions])).toEqual([
      ['unknown-operator', ['where', 'and', 0, 'operator'], ['gt']],
      ['unknown-operator', ['where', 'and', 1, 'operator'], ['eq']],
    ]);
  });

  it('bare conditions lack where, and the fix wraps them', () => {
    const bare = records.filter((r) => r.kind === 'condition' || r.kind === 'filter-missing-where');
    expect(bare.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 21, 22, 23, 24, 65, 67]);
    for (const r of bare) {
      const text = quotedInputOf(r);
      const d = read(text).diagnostics.find((x) => x.code === 'missing-where')!;
      expect(d.path).toEqual([]);
      const fixed = read(applyFix(text, d.fixes![0]));
      expect(fixed.diagnostics.map((x) => x.code)).not.toContain('missing-where');
    }
  });

  it('unparseable records are invalid-json, as published and as form 2', () => {
    for (const n of [15, 16, 17, 18, 25, 28, 29, 61, 72, 73, 74]) {
      const r = records[n - 1];
      for (const text of [r.original, quotedInputOf(r)]) {
        expect(read(text).diagnostics.map((d) => d.code), `${n}: ${text}`).toContain('invalid-json');
      }
    }
  });

  it('escaped records pasted without quotes are read anyway, with one escaped-json warning (as check and decompile read them)', () => {
    for (const r of records.filter((x) => x.format.startsWith('JSON-string-escaped') && structurallyValid(x))) {
      const result = read(r.original);
      expect(result.form).toBe('string');
      expect(result.diagnostics.map((d) => d.code), String(r.n)).toEqual(['escaped-json']);
    }
  });
});
