import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv } from 'ajv';
import { OPERATOR_MISSPELLINGS, OPERATORS } from '../../src/filter/operators.js';
import { FILTER_DOCUMENT_SCHEMA, readFilterInput, validateFilterDocument } from '../../src/filter/json/index.js';

describe('FILTER_DOCUMENT_SCHEMA', () => {
  it('is a plain JSON draft-07 schema with an id and a title', () => {
    expect(JSON.parse(JSON.stringify(FILTER_DOCUMENT_SCHEMA))).toEqual(FILTER_DOCUMENT_SCHEMA);
    expect(FILTER_DOCUMENT_SCHEMA.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(FILTER_DOCUMENT_SCHEMA.$id).toBeTruthy();
    expect(FILTER_DOCUMENT_SCHEMA.title).toBeTruthy();
    // A plain ajv (as an editor or another tool would use) accepts it, given the editor keyword.
    const ajv = new Ajv({ strict: false });
    expect(() => ajv.compile(FILTER_DOCUMENT_SCHEMA)).not.toThrow();
  });

  it('lists the operators of the table, with their documentation', () => {
    const operator = FILTER_DOCUMENT_SCHEMA.definitions.condition.properties.operator;
    expect(operator.else.enum).toEqual(OPERATORS.map((o) => o.name));
    operator.else.enumDescriptions.forEach((d, i) => expect(d).toContain(OPERATORS[i].doc));
  });

  it('answers each known misspelling with its operator (editors show the errorMessage), and still refuses it', () => {
    const operator = FILTER_DOCUMENT_SCHEMA.definitions.condition.properties.operator;
    expect(operator.if.enum).toEqual([...OPERATOR_MISSPELLINGS.keys()]);
    expect(operator.then.allOf.map((b) => [b.if.const, b.then.const])).toEqual([...OPERATOR_MISSPELLINGS]);
    for (const b of operator.then.allOf) expect(b.then.errorMessage).toContain(JSON.stringify(b.then.const));
    expect(validateFilterDocument({ where: { key: 'a', operator: 'neq', value: 1 } }).valid).toBe(false);
    expect(validateFilterDocument({ where: { key: 'a', operator: 'bogus', value: 1 } }).valid).toBe(false);
    expect(validateFilterDocument({ where: { key: 'a', operator: '!eq', value: 1 } }).valid).toBe(true);
  });
});

describe('validateFilterDocument', () => {
  it('accepts the documents of docs/language.md#the-compiled-filter', () => {
    const doc = {
      where: {
        and: [
          { key: 'ClientRequestHost', operator: 'eq', value: 'example.com' },
          { or: [{ key: 'EdgeResponseStatus', operator: 'geq', value: 500 }, { key: 'ClientCountry', operator: 'in', value: ['us', 'ca'] }] },
        ],
      },
    };
    expect(validateFilterDocument(doc)).toEqual({ valid: true, errors: [] });
  });

  it.each([
    [{}, ''],
    [{ where: { key: 'A', operator: 'neq', value: 1 } }, '/where'],
    [{ where: { and: [{ key: 'A', operator: 'eq', value: null }] } }, '/where'],
    [{ where: { and: [] } }, '/where'],
    [{ where: { and: [{ key: 'A', operator: 'eq', value: 1 }], or: [] } }, '/where'],
    [{ where: { key: 'A', operator: 'eq', value: 1 }, extra: 1 }, ''],
  ])('rejects %j, with errors at %j', (doc, pointer) => {
    const r = validateFilterDocument(doc);
    expect(r.valid).toBe(false);
    expect(r.errors.map((e) => e.instancePath)).toContain(pointer);
  });

  it('never throws on odd values', () => {
    for (const v of [undefined, null, 1, 'x', [], Symbol('s'), () => 1, new Date(0)]) {
      expect(validateFilterDocument(v).valid).toBe(false);
    }
  });
});

/**
 * The reader and the schema must agree: the reader gives an expression exactly when the schema accepts the
 * document, except for extra properties, which the reader only warns about (the API ignores them).
 */
describe('reader and schema agree', () => {
  const scalar = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean());
  const anything = fc.oneof(scalar, fc.constant(null), fc.constant({}), fc.array(scalar, { maxLength: 2 }));
  const operator = fc.oneof(fc.constantFrom(...OPERATORS.map((o) => o.name)), fc.constantFrom('neq', 'lte', 'Eq', ''), fc.string({ maxLength: 4 }));
  const { node } = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      tie('condition'),
      tie('group'),
      anything,
    ),
    condition: fc.record(
      {
        key: fc.oneof(fc.string({ maxLength: 4 }), anything),
        operator: fc.oneof(operator, anything),
        value: fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), anything, fc.array(anything, { maxLength: 2 })),
        extra: anything,
        and: fc.array(tie('node'), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
    group: fc.oneof(
      fc.record({ and: fc.oneof(fc.array(tie('node'), { maxLength: 3 }), anything) }),
      fc.record({ or: fc.oneof(fc.array(tie('node'), { maxLength: 3 }), anything) }),
    ),
  }));
  const document = fc.oneof(fc.record({ where: node }), fc.record({ where: node, note: anything }, { requiredKeys: ['where'] }), node);

  it('on random documents', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(document, (doc) => {
        if (typeof doc === 'string') return; // a string input is JSON text, not a value
        const schema = validateFilterDocument(doc);
        const read = readFilterInput(doc);
        const onlyWarnings = read.diagnostics.every((d) => d.code === 'unknown-property');
        if (schema.valid) {
          expect(read.diagnostics).toEqual([]);
          expect(read.expr).toBeDefined();
        } else if (read.expr) {
          expect(onlyWarnings).toBe(true);
        } else {
          expect(read.diagnostics.some((d) => d.severity === 'error')).toBe(true);
        }
        // Same answer from the JSON text of the document, which also has offsets to check.
        const text = JSON.stringify(doc);
        if (text === undefined) return;
        const fromText = readFilterInput(text);
        // (Compared as sets: without text every offset is 0, so the order is not the text order.)
        const summary = (r: typeof read) => r.diagnostics.map((d) => JSON.stringify([d.code, d.path])).sort();
        expect(summary(fromText)).toEqual(summary(read));
        for (const d of fromText.diagnostics) expect(0 <= d.start && d.start <= d.end && d.end <= text.length).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
