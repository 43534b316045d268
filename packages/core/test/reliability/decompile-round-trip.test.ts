/**
 * Whatever decompile prints compiles back to the same filter, or decompile reports the error itself: exponent
 * numbers are written out digit by digit, `in []` and keys no text file can hold (lone surrogates) are errors
 * located by JSON path. Large filters (125,000 conditions) neither overflow the stack nor throw.
 */
import { describe, expect, it } from 'vitest';
import { check, compile, decompile, format } from '@logfilter/core';
import { expandExponent } from '../../src/filter/util/values.js';

const where = (cond: string) => `{"where":${cond}}`;

function roundTrip(json: string, dataset = 'any') {
  const d = decompile(json, { dataset });
  expect(d.ok).toBe(true);
  const c = compile(d.source!, { dataset });
  expect(c.diagnostics.filter((x) => x.severity === 'error')).toEqual([]);
  return { source: d.source!, json: c.json! };
}

describe('exponent numbers', () => {
  it.each([
    ['1e2', '100.0'],
    ['1E+2', '100.0'],
    ['1.5e-7', '0.00000015'],
    ['-2.50e1', '-25.0'],
    ['12345678901234567890e-10', '1234567890.123456789'],
    ['0e0', '0.0'],
    ['1.25E3', '1250.0'],
  ])('%s is written %s', (raw, text) => {
    expect(expandExponent(raw)).toBe(text);
  });

  it.each(['1e2', '1.5e-7', '-3E+4', '6.02e23'])('{"value":%s} on a float field decompiles to source that compiles to the same number', (raw) => {
    const input = where(`{"key":"EdgeResponseCompressionRatio","operator":"gt","value":${raw}}`);
    expect(check(input).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const { source, json } = roundTrip(input, 'http_requests');
    expect(source).not.toMatch(/[0-9][eE]/);
    expect(JSON.parse(json).where.value).toBe(JSON.parse(input).where.value);
  });

  it('an exponent beyond ±1000 is reported, not written out', () => {
    const input = where('{"key":"x","operator":"gt","value":1e999999}');
    const d = decompile(input, { dataset: 'any' });
    expect(d.ok).toBe(false);
    expect(d.diagnostics.map((x) => [x.code, x.path, input.slice(x.start, x.end)])).toEqual([['invalid-node', ['where', 'value'], '1e999999']]);
  });
});

describe('what the language cannot write is reported by decompile', () => {
  it('in [] is empty-list at the value', () => {
    const input = where('{"key":"EdgeResponseStatus","operator":"in","value":[]}');
    const d = decompile(input);
    expect(d.ok).toBe(false);
    expect(d.diagnostics.map((x) => [x.code, x.severity, x.path, input.slice(x.start, x.end)])).toEqual([['empty-list', 'error', ['where', 'value'], '[]']]);
  });

  it('!in [] inside an and is reported at its path', () => {
    const input = where('{"and":[{"key":"a","operator":"eq","value":1},{"key":"b","operator":"!in","value":[]}]}');
    const d = decompile(input, { dataset: 'any' });
    expect(d.diagnostics.map((x) => [x.code, x.path])).toEqual([['empty-list', ['where', 'and', 1, 'value']]]);
  });

  it('a lone surrogate in a key is an error (a text file would turn it into U+FFFD)', () => {
    const input = where('{"key":"x\\ud800y","operator":"eq","value":"a"}');
    const d = decompile(input, { dataset: 'any' });
    expect(d.ok).toBe(false);
    expect(d.diagnostics.map((x) => [x.code, x.path])).toEqual([['invalid-node', ['where', 'key']]]);
  });

  it('a surrogate pair in a key is fine, and a lone surrogate in a value stays an escape', () => {
    roundTrip(where('{"key":"x😀","operator":"eq","value":"a"}'));
    const { source } = roundTrip(where('{"key":"x","operator":"eq","value":"a\\udc00"}'));
    expect(source).toContain('\\udc00');
  });
});

// 125,000 conditions and 200,000 list items are the point (no stack overflow, linear work): seconds of CPU, so
// a budget of their own rather than the default 20 s, which a loaded 2-core machine exceeds.
describe('large filters', { timeout: 180_000 }, () => {
  const N = 125_000;
  it(`decompile and format take ${N} conditions without a stack overflow`, () => {
    const conds = Array.from({ length: N }, (_, i) => `{"key":"EdgeResponseStatus","operator":"eq","value":${i}}`).join(',');
    const d = decompile(where(`{"or":[${conds}]}`));
    expect(d.ok).toBe(true);
    const f = format(d.source!);
    expect(f.ok).toBe(true);
    expect(f.text.split('\n').filter((l) => l.includes('EdgeResponseStatus')).length).toBe(N);
  });

  it('200,000 items in one in-list are checked (each item located by its own index)', () => {
    const items = Array.from({ length: 200_000 }, (_, i) => (i === 199_999 ? '"x"' : String(i)));
    const input = where(`{"key":"EdgeResponseStatus","operator":"in","value":[${items.join(',')}]}`);
    const r = check(input);
    const typeErrors = r.diagnostics.filter((d) => d.code === 'value-type');
    expect(typeErrors.map((d) => d.path)).toEqual([['where', 'value', 199_999]]);
  });
});
