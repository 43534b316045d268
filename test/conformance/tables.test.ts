/**
 * Tables written from the language reference, docs/language.md (written out here, independently of the operator table the code
 * uses, so that a wrong entry in the code fails): every spelling, every operator × field type pair,
 * De Morgan for every operator.
 */
import { describe, expect, it } from 'vitest';
import { compile, OPERATORS } from '@logfilter/core';

/** docs/language.md#operators: every spelling → JSON operator. */
const SPELLINGS: [string, string][] = [
  ['==', 'eq'], ['eq', 'eq'], ['!=', '!eq'], ['!eq', '!eq'],
  ['<', 'lt'], ['lt', 'lt'], ['<=', 'leq'], ['leq', 'leq'],
  ['>', 'gt'], ['gt', 'gt'], ['>=', 'geq'], ['geq', 'geq'],
  ['startsWith', 'startsWith'], ['not startsWith', '!startsWith'], ['!startsWith', '!startsWith'],
  ['endsWith', 'endsWith'], ['not endsWith', '!endsWith'], ['!endsWith', '!endsWith'],
  ['contains', 'contains'], ['not contains', '!contains'], ['!contains', '!contains'],
  ['in', 'in'], ['not in', '!in'], ['!in', '!in'],
];

/** docs/language.md#compilation: negations. */
const NEGATION: Record<string, string> = {
  eq: '!eq', '!eq': 'eq', lt: 'geq', geq: 'lt', leq: 'gt', gt: 'leq',
  startsWith: '!startsWith', '!startsWith': 'startsWith', endsWith: '!endsWith', '!endsWith': 'endsWith',
  contains: '!contains', '!contains': 'contains', in: '!in', '!in': 'in',
};

/** docs/language.md#types: operator → field types allowed. */
const ALLOWED: Record<string, string[]> = {
  eq: ['string', 'int', 'bool'], '!eq': ['string', 'int', 'bool'],
  lt: ['int'], leq: ['int'], gt: ['int'], geq: ['int'],
  startsWith: ['string'], endsWith: ['string'], '!startsWith': ['string'], '!endsWith': ['string'],
  contains: ['string', 'array'], '!contains': ['string', 'array'],
  in: ['string', 'int', 'array'], '!in': ['string', 'int', 'array'],
};

/** One http_requests field of each type class, with a value of the right element type. */
const FIELDS: Record<string, { field: string; value: string }> = {
  string: { field: 'ClientRequestHost', value: '"example.com"' },
  int: { field: 'EdgeResponseStatus', value: '500' },
  bool: { field: 'CacheReserveUsed', value: 'true' },
  array: { field: 'BotTags', value: '"api"' },
};

const isList = (op: string) => op === 'in' || op === '!in';

describe('every operator spelling', () => {
  it('covers every spelling of the operator table', () => {
    const fromTable = OPERATORS.flatMap((o) => [...(o.symbol ? [o.symbol] : []), ...o.words, ...(o.notForm ? [`not ${o.notForm}`] : [])]);
    expect(new Set(fromTable)).toEqual(new Set(SPELLINGS.map(([s]) => s)));
  });
  it.each(SPELLINGS)('%s compiles to %s', (spelling, name) => {
    const value = isList(name) ? '[1]' : '1';
    const r = compile(`dataset any\nx ${spelling} ${value}`);
    expect(r.diagnostics).toEqual([]);
    expect(r.json).toBe(`{"where":{"key":"x","operator":${JSON.stringify(name)},"value":${value}}}`);
  });
});

describe('De Morgan for every operator', () => {
  it.each(Object.entries(NEGATION))('not (x %s v) compiles to %s', (op, negated) => {
    const spelling = SPELLINGS.find(([, n]) => n === op)![0];
    const value = isList(op) ? '["v"]' : '"v"';
    const r = compile(`dataset any\nnot (x ${spelling} ${value} and y == 1)`);
    expect(r.json).toBe(`{"where":{"or":[{"key":"x","operator":${JSON.stringify(negated)},"value":${value}},{"key":"y","operator":"!eq","value":1}]}}`);
  });
  it('matches the operator table', () => {
    for (const o of OPERATORS) expect(o.negation).toBe(NEGATION[o.name]);
  });
});

describe('every operator × field type pair of the type table', () => {
  const cases = Object.keys(ALLOWED).flatMap((op) => Object.keys(FIELDS).map((type) => [op, type] as const));
  it.each(cases)('%s on a %s field', (op, type) => {
    const { field, value } = FIELDS[type];
    const spelling = SPELLINGS.find(([, n]) => n === op)![0];
    const v = isList(op) ? `[${value}]` : value;
    const src = `${field} ${spelling} ${v}`;
    const r = compile(src);
    if (ALLOWED[op].includes(type)) {
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(r.ok).toBe(true);
    } else {
      expect(r.diagnostics.map((d) => [d.code, d.start, d.end])).toEqual([['operator-type', field.length + 1, field.length + 1 + spelling.length]]);
    }
  });
  it.each(Object.keys(ALLOWED))('%s on an object field is unfilterable', (op) => {
    const spelling = SPELLINGS.find(([, n]) => n === op)![0];
    const r = compile(`RequestHeaders ${spelling} ${isList(op) ? '["x"]' : '"x"'}`);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unfilterable-field']);
  });
  it.each(Object.keys(ALLOWED))('%s on an int or string field follows the union of int and string', (op) => {
    const allowed = ALLOWED[op].includes('int') || ALLOWED[op].includes('string');
    const spelling = SPELLINGS.find(([, n]) => n === op)![0];
    const numeric = ALLOWED[op].length === 1 && ALLOWED[op][0] === 'int';
    const v = numeric ? '5' : '"5"';
    const r = compile(`EdgeStartTimestamp ${spelling} ${isList(op) ? `[${v}]` : v}`);
    expect(r.diagnostics.some((d) => d.code === 'operator-type')).toBe(!allowed);
  });
});
