/** The field extractor returns what JSON.parse would give for the wanted top-level keys. */
import { describe, expect, it } from 'vitest';
import { createExtractor } from '../../src/eval/extract.js';
import { defaultDecode } from '../../src/eval/scanner.js';
import { parseExact } from '../../src/eval/exact.js';

const enc = new TextEncoder();
/** The fields the extractor gives, read as the conditions read them (own properties for inherited names). */
const extract = (fields: string[], line: string) => {
  const bytes = enc.encode(line);
  const o = createExtractor(fields, defaultDecode)(bytes, 0, bytes.length);
  if (o === undefined) return undefined;
  const got: Record<string, unknown> = Object.create(null);
  for (const f of fields) {
    const v = f in Object.prototype ? (Object.prototype.hasOwnProperty.call(o, f) ? o[f] : undefined) : o[f];
    if (v !== undefined) Object.defineProperty(got, f, { value: v, enumerable: true });
  }
  return { ...got };
};

describe('createExtractor', () => {
  it.each([
    ['{"a":1,"b":"x"}', ['a', 'b'], { a: 1, b: 'x' }],
    ['{ "a" : [1, {"a": 2}] , "b" : {"a":"no"} }', ['a'], { a: [1, { a: 2 }] }],
    ['{"o":{"a":"nested"},"z":1}', ['a'], {}],
    ['{"a":"first","a":"last"}', ['a'], { a: 'last' }],
    ['{"\\u0061":true,"b":null}', ['a', 'b'], { a: true, b: null }],
    ['{"s":"quote \\" and {\\"a\\":1} and \\\\","a":false}', ['a'], { a: false }],
    ['{"a":"x\\\\"}', ['a'], { a: 'x\\' }],
    ['{"a":"caf\\u00e9 \\/ ok"}', ['a'], { a: 'café / ok' }],
    // an integer beyond 2^53 keeps its digits (a bigint); JSON.parse would round it
    ['{"a":-1.5e3,"b":1715000000000610620}', ['a', 'b'], { a: -1500, b: 1715000000000610620n }],
    ['{"__proto__":"p","constructor":1}', ['__proto__', 'constructor'], { ['__proto__']: 'p', constructor: 1 }],
    ['{}', ['a'], {}],
  ])('%s', (line, fields, expected) => {
    const got = extract(fields as string[], line);
    expect(got).toEqual(expected);
    const parsed = parseExact(line) as Record<string, unknown>;
    for (const f of fields as string[]) if (Object.prototype.hasOwnProperty.call(parsed, f)) expect(Object.getOwnPropertyDescriptor(got!, f)?.value).toEqual(parsed[f]);
  });

  it('gives up on text that is not an object', () => {
    expect(extract(['a'], '[1]')).toBeUndefined();
    expect(extract(['a'], '{"a":1')).toBeUndefined();
    expect(extract(['a'], '{"a" 1}')).toBeUndefined();
  });
});

describe('createExtractor values', () => {
  it.each([
    ['{"a":-0}', -0],
    ['{"a":123456789012345}', 123456789012345],
    ['{"a":1234567890123456789}', 1234567890123456789n],
    ['{"a":[1,9007199254740993]}', [1, 9007199254740993n]],
    ['{"a":"say \\"hi\\" \\\\ \\u00e9"}', 'say "hi" \\ é'],
    ['{"a":[1,"]",{"b":"}"}]}', [1, ']', { b: '}' }]],
    ['{"x":"' + 'long '.repeat(200) + '\\"","a":7}', 7],
  ])('%s', (line, value) => {
    const got = extract(['a'], line)!;
    if (Object.is(value, -0)) expect(Object.is(got.a, value)).toBe(true);
    else expect(got.a).toEqual(value);
  });

  it('reads a value that cannot be decoded as absent (its line is not JSON and could not match)', () => {
    expect(extract(['a'], '{"a":01}')).toEqual({});
  });
});
