import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  parseJson,
  stringOffsetMapper,
  toPlain,
  type JsonArray,
  type JsonObject,
  type JsonString,
  type JsonValue,
} from '../../src/filter/json/index.js';

function value(text: string): JsonValue {
  const r = parseJson(text);
  expect(r.diagnostics).toEqual([]);
  return r.value!;
}

/** The single diagnostic of a text that must not parse. */
function failure(text: string) {
  const r = parseJson(text);
  expect(r.value).toBeUndefined();
  expect(r.diagnostics).toHaveLength(1);
  return r.diagnostics[0];
}

describe('located tree', () => {
  it('gives the offsets of every value and every key', () => {
    const text = ' {"a" : [1, "x\\n", true, null],\n "b":{}} ';
    const root = value(text) as JsonObject;
    expect([root.start, root.end]).toEqual([1, 40]);
    const [a, b] = root.properties;
    expect([a.key.start, a.key.end, a.key.value]).toEqual([2, 5, 'a']);
    const arr = a.value as JsonArray;
    expect(arr.items.map((i) => text.slice(i.start, i.end))).toEqual(['1', '"x\\n"', 'true', 'null']);
    expect((arr.items[1] as JsonString).value).toBe('x\n');
    expect([a.start, a.end]).toEqual([2, 30]);
    expect(text.slice(b.key.start, b.key.end)).toBe('"b"');
    expect(text.slice(b.value.start, b.value.end)).toBe('{}');
  });

  it('keeps numbers as their raw text, big integers exact', () => {
    const root = value('[1700000000000000000, -0, 1.50, 2e10, 123456789012345678901234567890]') as JsonArray;
    expect(root.items.map((n) => (n.type === 'number' ? [n.raw, n.integer] : null))).toEqual([
      ['1700000000000000000', true],
      ['-0', true],
      ['1.50', false],
      ['2e10', false],
      ['123456789012345678901234567890', true],
    ]);
  });

  it('marks duplicate keys and keeps both properties', () => {
    const root = value('{"k":1,"j":2,"k":3}') as JsonObject;
    expect(root.properties.map((p) => p.duplicate)).toEqual([false, false, true]);
    expect(root.properties[2].key.start).toBe(13);
  });

  it('accepts a leading byte order mark', () => {
    expect(value('\uFEFF{"a":1}').start).toBe(1);
  });
});

describe('strict JSON errors', () => {
  // [text, start, end]: where the problem is, not where a generic parser gives up.
  const cases: [string, string, number, number][] = [
    ['trailing comma in an array', '[1,2,]', 4, 5],
    ['trailing comma in an object', '{"a":1,}', 6, 7],
    ['single-quoted key', "{'a':1}", 1, 2],
    ['single-quoted value', "{\"a\":'x'}", 5, 6],
    ['unquoted key', '{where:1}', 1, 6],
    ['comment', '{"a":1 // no\n}', 7, 8],
    ['raw newline in a string', '{"a":"x\ny"}', 7, 8],
    ['raw tab in a string', '["a\tb"]', 3, 4],
    ['invalid escape', '["a\\qb"]', 3, 5],
    ['bad unicode escape', '["\\u00zz"]', 2, 7],
    ['leading zero', '[01]', 2, 3],
    ['dot without digits', '[1.]', 3, 4],
    ['exponent without digits', '[1e+]', 4, 5],
    ['minus without digits', '[-x]', 2, 3],
    ['missing comma', '[1 2]', 3, 4],
    ['missing colon', '{"a" 1}', 5, 6],
    ['extra data', '{"a":1} x', 8, 9],
    ['Python literal', '{"a":True}', 5, 9],
    ['NaN', '[NaN]', 1, 4],
    ['astral character out of place kept whole', '[\u{1F600}]', 1, 3],
  ];
  it.each(cases)('%s', (_name, text, start, end) => {
    const d = failure(text);
    expect(d.code).toBe('invalid-json');
    expect([d.start, d.end]).toEqual([start, end]);
  });

  // Truncation is reported at the end of the input, where the missing text would go.
  it.each(['', '   ', '{', '{"a"', '{"a":', '{"a":1', '[1,', '["abc', '["a\\', '["\\u00', '{"a":tr', '[-', '[1.', '[1e'])(
    'truncated %j',
    (text) => {
      const d = failure(text);
      expect(d.code).toBe('invalid-json');
      expect([d.start, d.end]).toEqual([text.length, text.length]);
    },
  );

  it('gives the path of the value being parsed', () => {
    expect(failure('{"where":{"and":[{"key":01}]}}').path).toEqual(['where', 'and', 0, 'key']);
  });

  it('notes where an unterminated string starts', () => {
    expect(failure('{"a":"xyz').related?.map((r) => r.start)).toEqual([5]);
  });
});

describe('limits', () => {
  it('100,000-deep nesting is a diagnostic, not a stack overflow', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const d = failure(deep);
    expect(d.code).toBe('too-deep');
    expect([d.start, d.end]).toEqual([512, 513]);
    const objects = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    expect(failure(objects).code).toBe('too-deep');
  });

  it('nesting up to the cap parses', () => {
    expect(value('['.repeat(512) + ']'.repeat(512)).type).toBe('array');
    expect(parseJson('[[[1]]]', { maxDepth: 2 }).diagnostics[0]?.code).toBe('too-deep');
  });

  it('parses a 1 MB document', { timeout: 60_000 }, () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ key: `Field${i}`, operator: 'eq', value: `v\"${i}\u00e9` }));
    const text = JSON.stringify({ where: { or: items } });
    expect(text.length).toBeGreaterThan(1_000_000);
    // No wall-clock assertion (shared machines make it flaky); super-linear work would hit the timeout.
    const root = value(text);
    expect(toPlain(root)).toEqual(JSON.parse(text));
  });
});

describe('string offsets', () => {
  it('maps decoded offsets back through escapes', () => {
    const text = '"a\\"b\\u0026c\\n\u{1F600}d"';
    const node = value(text) as JsonString;
    expect(node.value).toBe('a"b&c\n\u{1F600}d');
    const map = stringOffsetMapper(text, node);
    const decoded = node.value;
    // Each decoded character maps to the start of its raw spelling.
    const raw = [...Array(decoded.length + 1).keys()].map(map);
    expect(raw).toEqual([1, 2, 4, 5, 11, 12, 14, 15, 16, 17]);
    expect(text.slice(map(decoded.indexOf('&')), map(decoded.indexOf('&') + 1))).toBe('\\u0026');
  });

  it('is a plain shift without escapes', () => {
    const text = '  "abc"';
    const node = value(text) as JsonString;
    expect([0, 1, 3].map(stringOffsetMapper(text, node))).toEqual([3, 4, 6]);
  });
});

describe('agrees with JSON.parse', () => {
  it('on random JSON values', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (v, pretty) => {
        const text = JSON.stringify(v, null, pretty ? 2 : undefined);
        const r = parseJson(text);
        expect(r.diagnostics).toEqual([]);
        expect(toPlain(r.value!)).toEqual(JSON.parse(text));
      }),
    );
  });

  it('on random text: accepts exactly what JSON.parse accepts, ranges inside the text', { timeout: 120_000 }, () => {
    const jsonish = fc.stringMatching(/^[\[\]{}",:0-9eE.+\-tfrunl \\a-z\n]{0,30}$/);
    fc.assert(
      fc.property(fc.oneof(fc.string(), jsonish), (text) => {
        let ok = true;
        try {
          JSON.parse(text);
        } catch {
          ok = false;
        }
        if (text.charCodeAt(0) === 0xfeff) return; // RFC 8259 lets us skip a BOM; JSON.parse does not
        const r = parseJson(text);
        expect(r.value !== undefined).toBe(ok);
        for (const d of r.diagnostics) {
          expect(0 <= d.start && d.start <= d.end && d.end <= text.length).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
