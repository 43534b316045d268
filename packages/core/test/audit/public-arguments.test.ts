/**
 * The public functions' arguments, as a program that creates jobs passes them (from JavaScript too): a wrong
 * type or an out-of-range option is a TypeError or RangeError at the call, never a failure deep inside, a
 * silently ignored option, or a result that loses the filter (undefined where a job body's string belongs).
 */
import { describe, expect, it } from 'vitest';
import {
  check,
  checkRule,
  checkRuleDocument,
  compile,
  createBlockScanner,
  createExplainer,
  createLineMatcher,
  createMatcher,
  decompile,
  evalPlan,
  evaluateRule,
  exactFilter,
  filterFields,
  format,
  formatRule,
  needlePlan,
  parse,
  parseRule,
  readSampleRequest,
  pretty,
  toFilterString,
  toSql,
  toSqlQuery,
  toTerraform,
} from '@logfilter/core';

const SOURCE = 'EdgeResponseStatus >= 500 and ClientCountry in ["us", "ca"]\n';
const JSON_TEXT = compile(SOURCE).json!;
const call = (f: (...a: never[]) => unknown, ...args: unknown[]) => () => (f as (...a: unknown[]) => unknown)(...args);

describe('text arguments', () => {
  const notText = [undefined, null, 42, { where: JSON.parse(JSON_TEXT).where }, ['a == 1']];
  it.each([
    ['compile', compile],
    ['format', format],
    ['parse', parse],
    ['toFilterString', toFilterString],
    ['toTerraform', toTerraform],
    ['pretty', pretty],
    ['exactFilter', exactFilter],
  ] as const)('%s refuses anything but a string with a TypeError', (name, f) => {
    for (const v of notText) {
      expect(call(f, v)).toThrow(TypeError);
      expect(call(f, v)).toThrow(new RegExp(`^${name} `));
    }
  });

  it('toFilterString of a failed compile throws instead of returning undefined for the job body', () => {
    const r = compile('EdgeResponseStatus >= "x"\n');
    expect(r.ok).toBe(false);
    expect(call(toFilterString, r.json)).toThrow(TypeError);
  });

  it('strings still work, and user input in them still gives diagnostics', () => {
    expect(toFilterString(JSON_TEXT)).toBe(JSON.stringify(JSON_TEXT));
    expect(toTerraform(JSON_TEXT).startsWith('jsonencode(')).toBe(true);
    expect(compile('').diagnostics.map((d) => d.code)).toEqual(['empty-filter']);
    expect(format('a ==').ok).toBe(false);
    expect(parse('a ==').diagnostics.length).toBeGreaterThan(0);
  });
});

describe('options', () => {
  it('null is no options', () => {
    expect(compile(SOURCE, null as never).json).toBe(JSON_TEXT);
    expect(check(JSON_TEXT, null as never).ok).toBe(true);
    expect(decompile(JSON_TEXT, null as never).ok).toBe(true);
  });

  it.each([
    [{ maxOperators: -1 }, RangeError],
    [{ maxOperators: 1.5 }, RangeError],
    [{ maxOperators: Number.NaN }, RangeError],
    [{ maxOperators: '30' }, TypeError],
    [{ maxBytes: -1 }, RangeError],
    [{ maxBytes: '1000' }, TypeError],
    [{ dataset: 42 }, TypeError],
    ['http_requests', TypeError],
  ])('compile and check refuse %j', (options, error) => {
    expect(call(compile, SOURCE, options)).toThrow(error);
    expect(call(check, JSON_TEXT, options)).toThrow(error);
    // before reading the input: a filter that cannot be read does not hide a bad option
    expect(call(check, '{', options)).toThrow(error);
  });

  it('check refuses an unknown accept', () => {
    expect(call(check, SOURCE, { accept: 'source' })).toThrow(RangeError);
  });

  it('decompile refuses a dataset that is not a string', () => {
    expect(call(decompile, JSON_TEXT, { dataset: 5 })).toThrow(TypeError);
  });

  it('limits at their edges still work: 0 and Infinity', () => {
    expect(compile(SOURCE, { maxOperators: 0 }).diagnostics.map((d) => d.code)).toEqual(['too-many-operators']);
    expect(compile(SOURCE, { maxBytes: Infinity, maxOperators: Infinity }).ok).toBe(true);
  });
});

describe('evaluator entries', () => {
  const doc = JSON.parse(JSON_TEXT);
  it.each([
    ['createMatcher', createMatcher],
    ['createLineMatcher', createLineMatcher],
    ['createExplainer', createExplainer],
    ['createBlockScanner', createBlockScanner],
    ['evalPlan', evalPlan],
    ['filterFields', filterFields],
    ['needlePlan', needlePlan],
  ] as const)('%s refuses the JSON text, null, a job and undefined with a TypeError at the call', (name, f) => {
    // naming the function called, not one deep inside it
    for (const v of [JSON_TEXT, null, undefined, { filter: JSON_TEXT }, [], 42]) expect(call(f, v)).toThrow(new RegExp(`^${name} `));
  });

  it('they take the document, and where documented its plan', () => {
    expect(createLineMatcher(doc).test('{"EdgeResponseStatus":503,"ClientCountry":"us"}')).toBe(true);
    const plan = evalPlan(exactFilter(JSON_TEXT));
    expect(createExplainer(plan)).toBeDefined();
    expect(createBlockScanner(plan)).toBeDefined();
    expect(needlePlan(plan)).toBeDefined();
    expect(filterFields(doc)).toEqual(['EdgeResponseStatus', 'ClientCountry']);
  });
});

describe('SQL', () => {
  it('toSql without options, or of undefined, answers a diagnostic as for any bad filter', () => {
    const noOptions = (toSql as (f: unknown, o?: unknown) => ReturnType<typeof toSql>)(JSON_TEXT);
    expect([noOptions.ok, noOptions.diagnostics.map((d) => d.code)]).toEqual([false, ['invalid-node']]);
    const missing = toSql(undefined as never, { dialect: 'duckdb' });
    expect([missing.ok, missing.diagnostics.map((d) => d.code)]).toEqual([false, ['invalid-node']]);
    expect(toSql(JSON_TEXT, { dialect: 'duckdb' }).ok).toBe(true);
  });

  it('toSql and toSqlQuery refuse options of the wrong type at the call', () => {
    expect(call(toSql, JSON_TEXT, { dialect: 'duckdb', dataset: 42 })).toThrow(/^toSql\b/);
    expect(call(toSqlQuery, JSON_TEXT)).not.toThrow();
    expect(call(toSqlQuery, JSON_TEXT, { dialect: 'duckdb', from: 42 })).toThrow(/^toSqlQuery\b/);
    expect(toSqlQuery(JSON_TEXT, { dialect: 'duckdb', from: 'logs' }).sql).toMatch(/^SELECT \* FROM "?logs"? WHERE /);
  });
});

describe('rules language', () => {
  const RULE = 'http.host eq "a.example"';
  it.each([
    ['parseRule', parseRule],
    ['checkRule', checkRule],
    ['formatRule', formatRule],
    ['checkRuleDocument', checkRuleDocument],
  ] as const)('%s refuses anything but a string, and options that are not an object, at the call', (name, f) => {
    for (const v of [undefined, null, 42, { expression: RULE }]) expect(call(f, v)).toThrow(new RegExp(`^${name} `));
    if (name !== 'parseRule') expect(call(f, RULE, 'filter')).toThrow(new RegExp(`^${name}\\b`));
  });

  it('parseRule refuses a kind that is not one', () => {
    expect(call(parseRule, RULE, { kind: 'value' })).toThrow(RangeError);
    expect(parseRule(RULE, 'filter').diagnostics).toEqual([]);
  });

  it('evaluateRule refuses a non-string source and fields that are not a Map; null options are none', () => {
    const { fields } = readSampleRequest({ 'http.host': 'a.example' });
    expect(call(evaluateRule, undefined, fields)).toThrow(/^evaluateRule /);
    expect(call(evaluateRule, RULE, { 'http.host': 'a.example' })).toThrow(/^evaluateRule /);
    const r = evaluateRule(RULE, fields, null as never);
    expect([r.ok, r.ok && r.matched]).toEqual([true, true]);
  });

  it('null options are none', () => {
    expect(checkRule(RULE, null as never).ok).toBe(true);
    expect(formatRule(RULE, null as never).ok).toBe(true);
    expect(checkRuleDocument('{"rules": []}', null as never).ok).toBe(true);
  });
});
