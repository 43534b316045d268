import { describe, expect, it } from 'vitest';
import type { Condition, Logical } from '../../src/filter/ast.js';
import { readFilterInput } from '../../src/filter/json/index.js';
import { check, decompile } from '../../src/index.js';
import { applyFix, codes, one, range, rangeOf } from './helpers.js';

const FILTER =
  '{"where":{"and":[{"key":"ClientRequestHost","operator":"eq","value":"example.com"},' +
  '{"or":[{"key":"EdgeResponseStatus","operator":"geq","value":500},' +
  '{"key":"ClientCountry","operator":"in","value":["us","ca"]}]}]}}';

describe('form 1: the filter object', () => {
  it('builds the AST with offsets and paths', () => {
    const r = readFilterInput(FILTER);
    expect(r.form).toBe('filter');
    expect(r.diagnostics).toEqual([]);
    expect(r.filterPath).toEqual([]);
    expect(r.text).toBe(FILTER);
    const and = r.expr as Logical;
    expect(and.kind).toBe('and');
    expect(and.path).toEqual(['where']);
    expect(range(and)).toEqual([9, FILTER.length - 1]);
    const host = and.items[0] as Condition;
    expect(host.path).toEqual(['where', 'and', 0]);
    expect(range(host.field)).toEqual(rangeOf(FILTER, '"ClientRequestHost"'));
    expect(host.field).toMatchObject({ name: 'ClientRequestHost', quoted: false });
    expect(host.operator).toMatchObject({ name: 'eq', spelling: 'eq' });
    expect(range(host.operator)).toEqual(rangeOf(FILTER, '"eq"'));
    expect(host.value).toMatchObject({ kind: 'string', value: 'example.com' });
    expect(range(host.value)).toEqual(rangeOf(FILTER, '"example.com"'));
    expect(range(host)).toEqual(rangeOf(FILTER, '{"key":"ClientRequestHost","operator":"eq","value":"example.com"}'));
    const or = and.items[1] as Logical;
    expect(or.kind).toBe('or');
    expect(or.path).toEqual(['where', 'and', 1]);
    const [status, country] = or.items as Condition[];
    expect(status.path).toEqual(['where', 'and', 1, 'or', 0]);
    expect(status.value).toMatchObject({ kind: 'int', raw: '500' });
    expect(country.value.kind).toBe('list');
    expect(country.value.kind === 'list' && country.value.items.map((i) => [i.kind, range(i)])).toEqual([
      ['string', rangeOf(FILTER, '"us"')],
      ['string', rangeOf(FILTER, '"ca"')],
    ]);
  });

  it('keeps big integers exact, tells integers from decimals, reads booleans', () => {
    const text =
      '{"where":{"and":[{"key":"EdgeStartTimestamp","operator":"geq","value":1700000000000000001},' +
      '{"key":"X","operator":"eq","value":2.50},{"key":"Y","operator":"eq","value":1e3},' +
      '{"key":"Z","operator":"eq","value":true},{"key":"W","operator":"in","value":[9007199254740993,-1]}]}}';
    const items = (readFilterInput(text).expr as Logical).items as Condition[];
    expect(items.map((c) => c.value)).toMatchObject([
      { kind: 'int', raw: '1700000000000000001' },
      { kind: 'float', raw: '2.50' },
      { kind: 'float', raw: '1e3' },
      { kind: 'bool', value: true },
      { kind: 'list', items: [{ kind: 'int', raw: '9007199254740993' }, { kind: 'int', raw: '-1' }] },
    ]);
  });

  it('marks field names that the source language must backquote', () => {
    const names = ['x-custom-header', 'in', 'Ok_1', ''];
    const text = JSON.stringify({ where: { or: names.map((key) => ({ key, operator: 'eq', value: 'v' })) } });
    const items = (readFilterInput(text).expr as Logical).items as Condition[];
    expect(items.map((c) => c.field.quoted)).toEqual([true, true, false, true]);
  });
});

describe('form 2: the JSON-encoded string', () => {
  // `\"` and `\u0026` before the problem: offsets must go through the escapes, not be counted in the decoded text.
  const inner =
    '{"where":{"and":[{"key":"ClientRequestQuery","operator":"contains","value":"a\\"b&c"},' +
    '{"key":"ClientCountry","operator":"neq","value":"ca"}]}}';
  const outer = JSON.stringify(inner).replace('&', '\\u0026');

  it('points diagnostics into the outer text through the escapes', () => {
    expect(outer).toContain('\\\\\\"b\\u0026c');
    const r = readFilterInput(outer);
    expect(r.form).toBe('string');
    expect(r.expr).toBeUndefined();
    const d = one(r, 'unknown-operator');
    expect(d.path).toEqual(['where', 'and', 1, 'operator']);
    expect(range(d)).toEqual(rangeOf(outer, '\\"neq\\"'));
    expect(d.suggestions).toEqual(['!eq']);
    // The fix is written in the outer text's escaping, so applying it gives a valid encoded filter.
    expect(d.fixes?.[0].edits).toEqual([{ ...toEdit(rangeOf(outer, '\\"neq\\"')), newText: '\\"!eq\\"' }]);
    const fixed = readFilterInput(applyFix(outer, d.fixes![0]));
    expect(fixed.diagnostics).toEqual([]);
    expect(((fixed.expr as Logical).items[1] as Condition).operator.name).toBe('!eq');
  });

  it('maps AST offsets too', () => {
    const fixed = outer.replace('\\"neq\\"', '\\"!eq\\"');
    const [query, country] = (readFilterInput(fixed).expr as Logical).items as Condition[];
    expect(query.value).toMatchObject({ kind: 'string', value: 'a"b&c' });
    expect(range(query.value)).toEqual(rangeOf(fixed, '\\"a\\\\\\"b\\u0026c\\"'));
    expect(range(country.field)).toEqual(rangeOf(fixed, '\\"ClientCountry\\"'));
    expect(range(country)).toEqual([fixed.indexOf('{', fixed.indexOf('\\u0026')), fixed.length - 4]);
  });

  it('maps JSON errors inside the string', () => {
    const comma = '"{\\"where\\":{\\"key\\":\\"a\\u0026\\",\\"operator\\":\\"eq\\",\\"value\\":1,}}"';
    const d = one(readFilterInput(comma), 'invalid-json');
    expect(range(d)).toEqual([comma.indexOf(',}'), comma.indexOf(',}') + 1]);
    // Truncated inside the string: at its end, the closing quote.
    const truncated = '"{\\"where\\":{\\"key\\""';
    const t = one(readFilterInput(truncated), 'invalid-json');
    expect(range(t)).toEqual([truncated.length - 1, truncated.length - 1]);
  });

  it('an empty string is an empty filter', () => {
    const d = one(readFilterInput('  "  "'), 'empty-filter');
    expect(range(d)).toEqual([2, 6]);
  });

  it('reads a filter encoded twice, but reports it', () => {
    const twice = JSON.stringify(JSON.stringify(JSON.stringify({ where: { key: 'a', operator: 'lte', value: 1 } })));
    const r = readFilterInput(twice);
    expect(codes(r).sort()).toEqual(['invalid-node', 'unknown-operator']);
    const d = one(r, 'unknown-operator');
    expect(twice.slice(d.start, d.end)).toBe('\\\\\\"lte\\\\\\"');
    expect(applyFix(twice, d.fixes![0])).toBe(twice.replace('lte', 'leq'));
  });
});

describe('escaped JSON pasted without its quotes', () => {
  const pasted = '{\\"where\\":{\\"key\\":\\"ClientCountry\\",\\"operator\\":\\"neq\\",\\"value\\":\\"ca\\"}}';

  it('is one escaped-json warning, and the filter inside is still read', () => {
    const r = readFilterInput(pasted);
    expect(r.form).toBe('string');
    expect(codes(r)).toEqual(['escaped-json', 'unknown-operator']);
    expect(r.diagnostics[0].severity).toBe('warning');
    const [json, op] = r.diagnostics;
    expect(range(json)).toEqual([1, 3]);
    expect(range(op)).toEqual(rangeOf(pasted, '\\"neq\\"'));
    expect(op.path).toEqual(['where', 'operator']);
  });

  it('is read the same way by readFilterInput, check and decompile: accepted, with the warning', () => {
    const ok = pasted.replace('neq', 'eq');
    const r = readFilterInput(ok);
    expect([codes(r), r.expr !== undefined]).toEqual([['escaped-json'], true]);
    const c = check(ok);
    expect([c.ok, c.diagnostics.map((d) => [d.code, d.severity])]).toEqual([true, [['escaped-json', 'warning']]]);
    const d = decompile(ok);
    expect([d.ok, d.diagnostics.map((x) => x.code)]).toEqual([true, ['escaped-json']]);
    expect(d.source).toContain('ClientCountry == "ca"');
  });

  it('offers to unescape it or to quote it', () => {
    const [unescape, quote] = readFilterInput(pasted).diagnostics[0].fixes!;
    expect(JSON.parse(applyFix(pasted, unescape))).toEqual({
      where: { key: 'ClientCountry', operator: 'neq', value: 'ca' },
    });
    expect(readFilterInput(applyFix(pasted, quote)).form).toBe('string');
  });
});

describe('form 3: a job', () => {
  const job = JSON.stringify({
    name: 'http',
    dataset: 'http_requests',
    destination_conf: 's3://bucket?region=us-east-1',
    filter: JSON.stringify({ where: { and: [{ key: 'ClientCountry', operator: 'eq', value: 'ca' }, { key: 'BotScore', operator: 'gte', value: 30 }] } }),
  });

  it('reads the filter string with paths from the job', () => {
    const r = readFilterInput(job);
    expect(r.form).toBe('job');
    expect(r.filterPath).toEqual(['filter']);
    const d = one(r, 'unknown-operator');
    expect(d.path).toEqual(['filter', 'where', 'and', 1, 'operator']);
    expect(range(d)).toEqual(rangeOf(job, '\\"gte\\"'));
    expect(d.suggestions).toEqual(['geq']);
    const fixed = readFilterInput(applyFix(job, d.fixes![0]));
    expect(fixed.diagnostics).toEqual([]);
    expect(((fixed.expr as Logical).items[0] as Condition).path).toEqual(['filter', 'where', 'and', 0]);
    expect(range((fixed.expr as Logical).items[0])).toEqual([job.indexOf('{\\"key'), job.indexOf(',{\\"key')]);
  });

  it('reads a filter object', () => {
    const text = '{"dataset":"http_requests","filter":{"where":{"key":"A","operator":"eq","value":1}}}';
    const r = readFilterInput(text);
    expect(r.form).toBe('job');
    expect((r.expr as Condition).path).toEqual(['filter', 'where']);
    expect(range((r.expr as Condition).field)).toEqual(rangeOf(text, '"A"'));
  });

  it.each([
    ['absent', '{"name":"j","dataset":"http_requests"}', 'empty-filter', []],
    ['null', '{"name":"j","filter":null}', 'empty-filter', ['filter']],
    ['empty', '{"name":"j","filter":""}', 'empty-filter', ['filter']],
    ['blank', '{"name":"j","filter":" "}', 'empty-filter', ['filter']],
    ['a number', '{"name":"j","filter":42}', 'invalid-node', ['filter']],
  ])('a filter that is %s', (_what, text, code, path) => {
    const r = readFilterInput(text);
    expect(r.form).toBe('job');
    expect(codes(r)).toEqual([code]);
    expect(r.diagnostics[0].path).toEqual(path);
    const [start, end] = range(r.diagnostics[0]);
    const expected = path.length ? rangeOf(text, text.slice(text.indexOf('"filter":') + 9, -1)) : [0, text.length];
    expect([start, end]).toEqual(expected);
  });
});

describe('form 4: an API response envelope', () => {
  const job = { id: 7, name: 'edge', dataset: 'http_requests', filter: '{"where":{"key":"A","operator":"eq","value":"x"}}' };

  it('reads the job in `result`', () => {
    const text = JSON.stringify({ result: job, success: true, errors: [], messages: [] });
    const r = readFilterInput(text);
    expect(r.form).toBe('envelope');
    expect(r.filterPath).toEqual(['result', 'filter']);
    expect((r.expr as Condition).path).toEqual(['result', 'filter', 'where']);
    expect(range((r.expr as Condition).value)).toEqual(rangeOf(text, '\\"x\\"'));
  });

  it('asks which job to pick when `result` is a list', () => {
    const text = JSON.stringify({ result: [job, { ...job, id: 8 }], success: true, errors: [], messages: [] });
    const r = readFilterInput(text);
    const d = one(r, 'invalid-node');
    expect(d.path).toEqual(['result']);
    expect(range(d)).toEqual([text.indexOf('['), text.indexOf('],"success"') + 1]);
    expect(d.related?.map((x) => text.slice(x.start, x.start + 7))).toEqual(['{"id":7', '{"id":8']);
    expect(r.expr).toBeUndefined();
  });

  it('carries the API error of a failed response', () => {
    const text = JSON.stringify({
      result: null,
      success: false,
      errors: [{ code: 1004, message: 'bad predicate: failed to decode value' }],
      messages: [],
    });
    const r = readFilterInput(text);
    expect(r.form).toBe('envelope');
    const d = one(r, 'invalid-node');
    expect(d.path).toEqual(['errors', 0]);
    expect(range(d)).toEqual(rangeOf(text, '{"code":1004,"message":"bad predicate: failed to decode value"}'));
    expect(d.message).toContain('bad predicate: failed to decode value');
  });

  it('reports a response without a job', () => {
    const r = readFilterInput('{"result":null,"success":true,"errors":[],"messages":[]}');
    expect(codes(r)).toEqual(['invalid-node']);
    expect(r.diagnostics[0].path).toEqual(['result']);
  });
});

describe('already-parsed values', () => {
  it('has offsets 0 and full paths', () => {
    const r = readFilterInput({ where: { or: [{ key: 'A', operator: 'eq', value: 1 }, { key: 'B', operator: 'lte', value: 2n }] } });
    expect(r.form).toBe('filter');
    expect(r.text).toBeUndefined();
    const d = one(r, 'unknown-operator');
    expect([d.start, d.end, d.path]).toEqual([0, 0, ['where', 'or', 1, 'operator']]);
    expect(d.suggestions).toEqual(['leq']);
    expect(d.fixes).toBeUndefined(); // no text to edit
  });

  it('builds the AST, bigint exact', () => {
    const r = readFilterInput({ where: { key: 'T', operator: 'gt', value: 1700000000000000001n } });
    expect(r.expr).toMatchObject({ kind: 'condition', start: 0, end: 0, path: ['where'], value: { kind: 'int', raw: '1700000000000000001' } });
  });

  it('reads a job object whose filter is a string', () => {
    const r = readFilterInput({ dataset: 'dns_logs', filter: '{"where":{"key":"A","operator":"eq","value":true}}' });
    expect(r.form).toBe('job');
    expect(r.expr).toMatchObject({ path: ['filter', 'where'], value: { kind: 'bool', value: true } });
  });

  it('reports what JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = { where: { key: 'A', operator: 'eq' } };
    (cyclic.where as Record<string, unknown>).value = cyclic;
    expect(codes(readFilterInput(cyclic))).toEqual(['invalid-node']);
    expect(readFilterInput(cyclic).diagnostics[0].path).toEqual(['where', 'value']);
    expect(codes(readFilterInput(undefined))).toEqual(['invalid-node']);
    expect(codes(readFilterInput(() => 1))).toEqual(['invalid-node']);
    // undefined properties are left out, as JSON.stringify does: the value is then missing.
    expect(codes(readFilterInput({ where: { key: 'A', operator: 'eq', value: undefined } }))).toEqual(['missing-value']);
  });
});

function toEdit([start, end]: [number, number]) {
  return { start, end };
}
