/**
 * Every real filter of test/fixtures/corpus/filters.jsonl: the valid ones decompile and recompile to a
 * structurally equal document (docs/language.md#decompiling-and-formatting), the invalid ones get exactly the error codes
 * listed here — from the text as it was published as well as from the parsed object.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, compile, DATASETS, decompile, type Diagnostic, type FilterDocument, filtersEqual, REMOVED_FIELDS } from '@logfilter/core';
import { CORPUS } from '../support/paths.js';

interface CorpusRecord {
  original: string;
  normalized?: string;
  filter: FilterDocument | null;
  format?: string;
  kind: string;
}

const records: CorpusRecord[] = readFileSync(path.join(CORPUS, 'filters.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));

/** Record number (1-based) → the error codes its input must get. Unlisted records must round-trip. */
const MISSING_WHERE = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 21, 22, 65, 67];
const INVALID_JSON = [15, 16, 17, 18, 25, 28, 29, 61, 72, 73, 74];
const EXPECTED_ERRORS: Record<number, string[]> = {
  ...Object.fromEntries(MISSING_WHERE.map((n) => [n, ['missing-where']])),
  ...Object.fromEntries(INVALID_JSON.map((n) => [n, ['invalid-json']])),
  23: ['missing-where', 'unknown-operator'], // lte
  24: ['missing-where', 'unknown-operator'], // gte
  26: ['unknown-operator'], // neq
  36: ['unknown-operator'],
  59: ['unknown-operator'],
  91: ['unknown-operator'],
  92: ['unknown-operator', 'unknown-operator'], // greater_than, equals
  39: ['missing-value'],
  42: ['missing-value'],
  40: ['missing-key'],
  49: ['missing-key'],
  54: ['missing-key'],
  41: ['missing-operator', 'missing-value'],
  45: ['conflicting-keys'],
  46: ['conflicting-keys'],
  47: ['conflicting-keys'],
  48: ['conflicting-keys'],
  51: ['conflicting-keys'],
  52: ['conflicting-keys'],
  53: ['conflicting-keys'],
  // readable, but the compiler refuses them
  27: ['in-needs-list', 'value-type'], // "in" with the string "200,201"
  60: ['in-needs-list', 'value-type'],
  68: ['in-needs-list', 'value-type'],
  80: ['removed-field'], // WAFAction
  84: ['unfilterable-field'], // firewall_events Action is not filterable
};
/** Misspelled operators get a "did you mean" with the canonical name. */
const SUGGESTIONS: Record<number, string[]> = { 23: ['leq'], 24: ['geq'], 26: ['!eq'], 36: ['!eq'], 59: ['!eq'], 91: ['!eq'] };

const PREFERRED = ['http_requests', 'firewall_events', 'dns_logs', 'spectrum_events', 'page_shield_events', 'nel_reports'];

/** The dataset a filter's fields belong to; `any` when none has them all (workers, magic firewall...). */
function datasetOf(filter: FilterDocument | null): string {
  const keys: string[] = [];
  const walk = (n: unknown) => {
    if (!n || typeof n !== 'object') return;
    const o = n as Record<string, unknown>;
    if (typeof o.key === 'string') keys.push(o.key);
    for (const k of ['where', 'and', 'or']) {
      const v = o[k];
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') walk(v);
    }
  };
  walk(filter);
  if (keys.some((k) => REMOVED_FIELDS.has(k))) return 'http_requests';
  return PREFERRED.find((d) => keys.length > 0 && keys.every((k) => DATASETS.get(d)!.byName.has(k))) ?? 'any';
}

const errors = (ds: readonly Diagnostic[]) => ds.filter((d) => d.severity === 'error').map((d) => d.code).sort();

describe('corpus filters', () => {
  it('holds the 92 records this test was written for', () => {
    expect(records.length).toBe(92);
  });

  records.forEach((r, i) => {
    const n = i + 1;
    const text = r.normalized ?? r.original;
    const dataset = datasetOf(r.filter);
    const expected = EXPECTED_ERRORS[n];
    it(`record ${n} (${r.kind}, ${r.format ?? ''}) ${expected ? `→ ${expected.join(', ')}` : 'round-trips'}`, () => {
      const fromText = decompile(text);
      const fromObject = r.filter ? decompile(r.filter) : undefined;
      for (const d of fromText.diagnostics) {
        expect(d.start).toBeGreaterThanOrEqual(0);
        expect(d.end).toBeLessThanOrEqual(text.length);
        expect(d.start).toBeLessThanOrEqual(d.end);
      }
      if (!expected) {
        expect(fromText.ok).toBe(true);
        expect(fromObject?.ok).toBe(true);
        expect(fromText.source).toBe(fromObject!.source);
        const c = compile(fromText.source!, { dataset });
        expect(errors(c.diagnostics)).toEqual([]);
        expect(filtersEqual(JSON.parse(c.json!), r.filter!)).toBe(true);
        // check() on the JSON agrees with compile() on the source
        expect(errors(check(text, { dataset }).diagnostics)).toEqual([]);
        // and the canonical JSON is a fixed point, byte for byte
        expect(compile(decompile(c.json!).source!, { dataset }).json).toBe(c.json);
        return;
      }
      if (fromText.ok) {
        // structurally fine: the checks refuse it, from the source and from the JSON alike
        expect(errors(compile(fromText.source!, { dataset }).diagnostics)).toEqual([...expected].sort());
        expect(errors(check(text, { dataset }).diagnostics)).toEqual([...expected].sort());
      } else {
        const got = errors(fromText.diagnostics);
        // unparseable text may report more than one problem; the expected codes must be among them
        if (expected[0] === 'invalid-json') expect(got).toContain('invalid-json');
        else expect(got).toEqual([...expected].sort());
        if (fromObject) expect(errors(fromObject.diagnostics)).toEqual(expected[0] === 'invalid-json' ? errors(fromObject.diagnostics) : [...expected].sort());
      }
      if (SUGGESTIONS[n]) {
        const d = fromText.diagnostics.find((x) => x.code === 'unknown-operator')!;
        expect(d.suggestions).toEqual(SUGGESTIONS[n]);
      }
    });
  });
});
