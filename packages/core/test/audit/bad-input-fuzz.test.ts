/**
 * A fast-check pass over every parser and decoder that takes a user's text, asserting "a diagnostic or a result,
 * never a throw": filter source and filter JSON (check, compile, decompile, format), rules expressions and rules
 * documents (checkRule, formatRule, checkRuleDocument, evaluateRule), sample requests, and NDJSON lines through the
 * line matcher (classify with and without validation). Inputs are hostile on purpose: arbitrary Unicode (lone
 * surrogates included), token soup of each language, and JSON shaped noise. Sized for a few seconds on a loaded
 * 2-core machine; the broader seeded fuzzer is test/fuzz (filter language only).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  check,
  checkRule,
  checkRuleDocument,
  compile,
  createLineMatcher,
  decompile,
  evaluateRule,
  format,
  formatRule,
  readSampleRequest,
  type FilterDocument,
} from '../../src/index.js';

const RUNS = 300;
const SEED = 36;

/** A diagnostic list, each with a code and a range inside the text (or at its end). */
function wellFormed(diagnostics: readonly { code: string; range?: { start: { offset: number }; end: { offset: number } } }[], length: number) {
  for (const d of diagnostics) {
    expect(typeof d.code).toBe('string');
    if (d.range) {
      expect(d.range.start.offset).toBeGreaterThanOrEqual(0);
      expect(d.range.end.offset).toBeLessThanOrEqual(length);
      expect(d.range.start.offset).toBeLessThanOrEqual(d.range.end.offset);
    }
  }
}

const anyText = fc.string({ unit: 'binary', maxLength: 200 });
const soup = (tokens: string[]) => fc.array(fc.oneof(fc.constantFrom(...tokens), fc.string({ maxLength: 4 })), { maxLength: 40 }).map((a) => a.join(' '));

const FILTER_TOKENS = ['dataset', 'http_requests', 'ClientIP', 'EdgeResponseStatus', 'ClientRequestHost', '==', '!=', '<', '>=', 'in', 'not', 'and', 'or', '(', ')', '[', ']', ',', '"a"', '"\\ud800"', '1e999999999', '-0', '0x10', 'startsWith', 'contains', '#', '\n', '\r\n', '\u0000', '\ufeff'];
const RULE_TOKENS = ['http.host', 'ip.src', 'http.request.uri.path', 'eq', 'ne', '==', 'in', 'not', 'and', 'or', 'xor', '&&', '||', '(', ')', '{', '}', '[', ']', '[*]', '"a"', '"\\x"', 'r"x"', 'r#"x"#', '1.2.3.4/33', 'lower(', 'any(', 'concat(', ',', '$list', 'matches', '"(a+)+$"', '1e999', '\u0000'];
const JSON_TOKENS = ['{', '}', '[', ']', ':', ',', '"where"', '"key"', '"operator"', '"value"', '"and"', '"or"', '"eq"', '"ClientIP"', '"filter"', '"result"', '"rules"', '"expression"', 'null', 'true', '1e999999999', '-0', '"\\ud800"', '"\\u00"', '123456789012345678901234567890'];

describe('never a throw, always a result or diagnostics', () => {
  it('filter text: check (JSON or source), compile, decompile, format', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, soup(FILTER_TOKENS), soup(JSON_TOKENS)), (text) => {
        const c = check(text, { accept: 'json-or-source' });
        expect(typeof c.ok).toBe('boolean');
        wellFormed(c.diagnostics, text.length);
        wellFormed(compile(text).diagnostics, text.length);
        wellFormed(decompile(text).diagnostics, text.length);
        expect(typeof format(text)).toBe('object');
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('rules text: checkRule (both kinds), formatRule, evaluateRule, and rules documents', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, soup(RULE_TOKENS)), fc.oneof(anyText, soup(JSON_TOKENS)), (rule, doc) => {
        for (const kind of ['filter', 'value'] as const) {
          const r = checkRule(rule, { kind });
          expect(typeof r.ok).toBe('boolean');
          expect(typeof formatRule(rule, { kind })).toBe('object');
        }
        expect(typeof evaluateRule(rule, new Map()).ok).toBe('boolean');
        expect(Array.isArray(checkRuleDocument(doc).diagnostics)).toBe(true);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('sample requests: any JSON value is read or refused with problems', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const r = readSampleRequest(value);
        expect(r).toBeTypeOf('object');
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('NDJSON lines: the line matcher classifies any line as blank, match, no-match or malformed', () => {
    const filters: FilterDocument[] = [
      { where: { key: 'ClientIP', operator: 'eq', value: '1.2.3.4' } },
      { where: { or: [{ key: 'EdgeResponseStatus', operator: 'geq', value: 500 }, { key: 'ClientRequestHost', operator: 'contains', value: '\u00e9' }] } },
      { where: { key: 'ClientCountry', operator: 'in', value: ['us', 'ca'] } },
    ] as FilterDocument[];
    const matchers = filters.map(createLineMatcher);
    const line = fc.oneof(anyText, soup(JSON_TOKENS), fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)), fc.dictionary(fc.constantFrom('ClientIP', 'EdgeResponseStatus', 'ClientRequestHost', 'ClientCountry'), fc.jsonValue({ maxDepth: 2 })).map((o) => JSON.stringify(o)));
    fc.assert(
      fc.property(line, (text) => {
        for (const m of matchers) {
          for (const validate of [false, true]) expect(['blank', 'match', 'no-match', 'malformed']).toContain(m.classify(text, validate));
          expect(typeof m.test(text)).toBe('boolean');
        }
      }),
      { numRuns: RUNS * 3, seed: SEED },
    );
  });
});
