/**
 * The JSON test suite's accept (`y_`) and reject (`n_`) documents (nst/JSONTestSuite, vendored under
 * test/fixtures/json-test-suite/ with its SOURCES.md) through every path of the evaluator, against JSON.parse,
 * as simdjson's minefield check does:
 * - every `y_` document, as the value of a log line's field (`{"v":DOC}`), and as the line itself: each path
 *   reads the fields JSON.parse reads (the line kernel's spans, the field extractor), and a filter built from
 *   that reading matches on every path;
 * - every `n_` document, in the same two forms: every path finds the line malformed and never matches it.
 *
 * How a document becomes one NDJSON line: its `\n` bytes become `\t`. JSON treats the two alike (whitespace
 * between tokens, a control character not allowed raw in a string), so the document keeps its verdict; the
 * test checks that with JSON.parse for each one. Where the line form differs from the document on purpose
 * (docs/language.md#evaluation), the test says so: a document of only spaces, tabs and CR is a blank line,
 * which is skipped and not counted rather than malformed; a document that is valid JSON but not an object is a
 * malformed log line. The reading is JSON.parse of the bytes decoded as UTF-8 (a line that is not valid UTF-8
 * is malformed), with integers beyond 2^53 as exact bigints (exact.ts), equal to JSON.parse's doubles when
 * rounded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBlockScanner, createLineMatcher, defaultDecode, parseExact } from '../../src/eval/index.js';
import { createExtractor } from '../../src/eval/extract.js';
import { createLineKernel, NOT_OBJECT, VALID, VALID_ESCAPED_KEY } from '../../src/eval/line-kernel.js';
import { createSpanRow } from '../../src/eval/span-values.js';
import type { FilterDocument, FilterNode } from '../../src/filter/filter.js';
import { FIXTURES } from '../../../../test/support/paths.js';
import { nodeHooks } from './harness.js';

const DIR = path.join(FIXTURES, 'json-test-suite', 'test_parsing');
const files = fs.readdirSync(DIR).filter((f) => /^[yn]_.*\.json$/.test(f)).sort();
// JSON.parse reads a string: decode as the CLI does (fatal UTF-8), keeping a BOM as the character JSON.parse rejects
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

const NL = 10;
const TAB = 9;

/** JSON.parse's reading of the bytes (integers beyond 2^53 exact), or `invalid`. */
function reading(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false };
  }
  let plain: unknown;
  try {
    plain = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  const value = parseExact(text);
  expect(rounded(value)).toEqual(plain);
  return { ok: true, value };
}

/** A value with its bigints as the doubles JSON.parse gives. */
function rounded(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(rounded);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rounded(x)]));
  return v;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The document as one line: `\n` becomes `\t` (see the file comment). */
function oneLine(doc: Uint8Array): Uint8Array {
  return doc.map((b) => (b === NL ? TAB : b));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Conditions that hold on `value` in field `key`, each one testing it (equal, bounds, text, elements). */
function holdingOn(key: string, value: unknown): FilterNode[] {
  const c = (operator: string, v: unknown) => ({ key, operator, value: v }) as FilterNode;
  if (typeof value === 'string') return [c('eq', value), c('in', [value, '\u0000other']), c('startsWith', value), c('endsWith', value), c('contains', value)];
  if (typeof value === 'number' || typeof value === 'bigint') return [c('eq', value), c('geq', value), c('leq', value), c('in', [value])];
  if (typeof value === 'boolean') return [c('eq', value), c('!eq', !value)];
  if (Array.isArray(value)) {
    const scalars = value.filter((e) => ['string', 'number', 'bigint', 'boolean'].includes(typeof e));
    return scalars.length > 0 ? scalars.map((e) => c('contains', e)) : [c('!eq', '\u0000other')];
  }
  // null and objects: only a negative operator holds on them
  return [c('!eq', '\u0000other'), c('!startsWith', '\u0000other')];
}

/** A filter that reads every line (no needle): a negative condition on `v`. */
const READS_ALL = { where: { key: 'v', operator: '!eq', value: '\u0000other' } } as FilterDocument;

type Verdict = 'blank' | 'match' | 'no-match' | 'malformed';

/** Every path's verdict on one line: the block scanner (kernel, Node hooks, pure JS, validating) and the line matcher. */
function verdicts(filter: FilterDocument, line: Uint8Array): Record<string, Verdict> {
  // as in a file: the line ends with its `\n` (an empty document is then an empty line)
  const block = concat(line, encoder.encode('\n'));
  const scan = (hooks: object, validate: boolean): Verdict => {
    const c = createBlockScanner(filter, hooks).scan(block, 0, block.length, { validate });
    expect(c.lines).toBe(1);
    if (c.total === 0) return 'blank';
    return c.matched === 1 ? 'match' : c.malformed === 1 ? 'malformed' : 'no-match';
  };
  let text: string | null;
  try {
    text = utf8.decode(line);
  } catch {
    text = null;
  }
  return {
    kernel: scan({}, false),
    'kernel, node hooks': scan(nodeHooks, false),
    'no kernel': scan({ kernel: false }, false),
    'no kernel, node hooks': scan({ ...nodeHooks, kernel: false }, false),
    validate: scan(nodeHooks, true),
    // the line matcher takes decoded text: a line that is not UTF-8 never reaches it
    'line matcher': text === null ? 'malformed' : createLineMatcher(filter).classify(text, true),
  };
}

/** The fields as the line kernel reads them (its verdict, and for VALID the span row's values). */
function kernelReading(line: Uint8Array, fields: string[]): { verdict: number; values?: unknown[] } {
  const kernel = createLineKernel(fields)!;
  kernel.load(line, 0, line.length);
  const verdict = kernel.scan(0, line.length);
  if (verdict !== VALID) return { verdict };
  const row = createSpanRow(fields, defaultDecode, kernel)(line)!;
  return { verdict, values: fields.map((f) => row[f]) };
}

/** The fields as the JS field extractor reads them (undefined when it rejects the line). */
function extractorReading(line: Uint8Array, fields: string[]): unknown[] | undefined {
  const row = createExtractor(fields, defaultDecode)(line, 0, line.length);
  return row === undefined ? undefined : fields.map((f) => row[f]);
}

/** -0 and 0 apart, bigints exact: the values of `got` are those of `want`. */
function sameValues(got: unknown[] | undefined, want: unknown[]): void {
  expect(got).toEqual(want);
  want.forEach((w, i) => {
    if (Object.is(w, -0)) expect(Object.is(got![i], -0)).toBe(true);
  });
}

interface Form {
  name: string;
  line: Uint8Array;
  /** JSON.parse's reading of the line; for a valid object, the fields read and their values. */
  expected: { ok: true; value: unknown } | { ok: false };
}

/** The forms of a document: as a field's value, as the line itself, and (a one-element array) its element as the value. */
function forms(doc: Uint8Array): Form[] {
  const body = oneLine(doc);
  const wrapped = concat(encoder.encode('{"v":'), body, encoder.encode('}'));
  const out: Form[] = [
    { name: 'as a value', line: wrapped, expected: reading(wrapped) },
    { name: 'as the line', line: body, expected: reading(body) },
  ];
  const read = reading(doc);
  if (read.ok && Array.isArray(read.value) && read.value.length === 1) {
    // the element's own text, between the outer brackets
    const text = utf8.decode(body).trim();
    const lifted = encoder.encode(`{"v":${text.slice(1, -1)}}`);
    out.push({ name: 'its element as a value', line: lifted, expected: reading(lifted) });
  }
  return out;
}

describe('JSON test suite (nst/JSONTestSuite test_parsing, y_ and n_)', () => {
  it('has the vendored documents', () => {
    expect(files.filter((f) => f.startsWith('y_')).length).toBe(95);
    expect(files.filter((f) => f.startsWith('n_')).length).toBe(188);
  });

  it.each(files)('%s', (file) => {
    const doc = new Uint8Array(fs.readFileSync(path.join(DIR, file)));
    const accept = file.startsWith('y_');
    // the suite's own verdict is JSON.parse's, and survives the newline mapping
    expect(reading(doc).ok).toBe(accept);
    expect(reading(oneLine(doc)).ok).toBe(accept);

    for (const form of forms(doc)) {
      const { line, expected } = form;
      const valid = expected.ok && isObject(expected.value);
      // the value form is valid exactly when the document is
      if (form.name !== 'as the line') expect(valid, form.name).toBe(accept);
      const blank = /^[ \t\r]*$/.test(new TextDecoder('utf-8', { ignoreBOM: true }).decode(line));

      if (!valid) {
        const all = verdicts(READS_ALL, line);
        expect(all, form.name).toEqual(Object.fromEntries(Object.keys(all).map((k) => [k, blank ? 'blank' : 'malformed'])));
        if (!blank) expect(kernelReading(line, ['v']).verdict, form.name).toBe(NOT_OBJECT);
        continue;
      }

      const object = expected.value as Record<string, unknown>;
      const fields = Object.keys(object);
      const want = fields.map((f) => object[f]);
      // the line kernel and the field extractor read what JSON.parse reads
      const k = kernelReading(line, fields);
      // (a key spelled with escapes is left to the extractor: VALID_ESCAPED_KEY)
      expect([VALID, VALID_ESCAPED_KEY], form.name).toContain(k.verdict);
      if (k.verdict === VALID) sameValues(k.values, want);
      sameValues(extractorReading(line, fields), want);

      // a filter built from that reading matches on every path
      const conditions = fields.flatMap((f) => holdingOn(f, object[f]));
      const filter = { where: conditions.length === 1 ? conditions[0]! : { and: conditions } } as FilterDocument;
      const all = verdicts(filter, line);
      expect(all, form.name).toEqual(Object.fromEntries(Object.keys(all).map((p) => [p, 'match'])));
      // and reads every line that is an object (an empty object has no field to test)
      if (fields.length === 0) expect(verdicts(READS_ALL, line).kernel).toBe('match');
    }
  });
});
