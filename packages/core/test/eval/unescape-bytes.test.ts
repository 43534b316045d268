/**
 * Escaped string values decided on bytes (unescape-bytes.ts): the decoder gives the UTF-8 of the text
 * JSON.parse reads from the token, or -1 exactly when that text holds a lone surrogate; and a string condition
 * on an escaped value is decided from those bytes, without decoding the row (the verdicts themselves are
 * checked against the reference in span-conditions.test.ts).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createUnescaper } from '../../src/eval/unescape-bytes.js';
import { compileSpanNode } from '../../src/eval/span-conditions.js';
import { evalPlan } from '../../src/eval/plan.js';

const encoder = new TextEncoder();

/** `s` as a JSON string token, each UTF-16 unit escaped (\u, either hex case, or a short escape) or not. */
function token(s: string, picks: number[]): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    const pick = picks[i % picks.length]!;
    const short = { 34: '\\"', 92: '\\\\', 47: '\\/', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t' }[u];
    const hex = u.toString(16).padStart(4, '0');
    const mustEscape = u === 34 || u === 92 || u < 32 || (u >= 0xd800 && u <= 0xdfff);
    if (pick === 1 && short) out += short;
    else if (pick === 2 || (pick === 1 && !short) || (mustEscape && pick === 0)) out += '\\u' + (i % 2 ? hex.toUpperCase() : hex);
    else out += s[i];
  }
  return out + '"';
}

const loneSurrogate = (s: string): boolean => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

describe('unescaping a JSON string to bytes', () => {
  it('gives the UTF-8 of the parsed text, or -1 for a lone surrogate', () => {
    const chars = fc.constantFrom('a', '/', '"', '\\', '\n', '\t', '\u0001', '&', 'é', '€', '😀', '\ud83d', '\ude00', '\u2028', ' ');
    const u = createUnescaper();
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 12 }).map((a) => a.join('')), fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 5 }), (s, picks) => {
        const t = token(s, picks);
        // lone surrogates raw in the token cannot be written as UTF-8 bytes: the kernel never sees them
        if (/[\ud800-\udfff]/.test(t)) return;
        const bytes = encoder.encode(t);
        const n = u.decode(bytes, 1, bytes.length - 1);
        const text = JSON.parse(t) as string;
        if (loneSurrogate(text)) expect(n).toBe(-1);
        else expect(Buffer.from(u.bytes.subarray(0, n)).toString('hex')).toBe(Buffer.from(encoder.encode(text)).toString('hex'));
      }),
      { numRuns: 3000 },
    );
  });

  it('grows its buffer for a long string', () => {
    const u = createUnescaper();
    const t = encoder.encode(JSON.stringify('x'.repeat(5000) + '\u0026'.repeat(3)).replace(/&/g, '\\u0026'));
    const n = u.decode(t, 1, t.length - 1);
    expect(n).toBe(5003);
    expect(u.bytes[5002]).toBe(38);
  });
});

describe('a string condition on an escaped value', () => {
  const cases: Array<[string, string, unknown, string, boolean]> = [
    ['contains', 'contains', 'bot', '"x\\u0062ot/1.0"', true],
    ['!contains', '!contains', 'curl', '"curl\\/8 \\u0026 more"', false],
    ['endsWith', 'endsWith', '.php', '"/a\\u002ephp"', true],
    ['startsWith', 'startsWith', '/api', '"\\/api?a=1\\u0026b=2"', true],
    ['in', 'in', ['us', 'ca'], '"\\u0075s"', true],
    ['!eq', '!eq', 'tablet', '"tab\\u006cet"', false],
  ];
  for (const [name, operator, value, json, expected] of cases) {
    it(`${name} is decided on its bytes, without reading the row`, () => {
      const line = encoder.encode(`{"k":${json}}`);
      const plan = evalPlan({ where: { key: 'k', operator, value } as never });
      const spans = { starts: Int32Array.of(5), ends: Int32Array.of(line.length - 1), escaped: Uint8Array.of(1) };
      const test = compileSpanNode(plan.root, spans);
      const row = new Proxy({}, { get: () => { throw new Error('the row was read'); } });
      expect(test(line, row as Record<string, unknown>)).toBe(expected);
    });
  }

  it('with a lone surrogate, reads the row', () => {
    const line = encoder.encode('{"k":"a\\ud83d"}');
    const plan = evalPlan({ where: { key: 'k', operator: 'contains', value: 'a' } });
    const spans = { starts: Int32Array.of(5), ends: Int32Array.of(line.length - 1), escaped: Uint8Array.of(1) };
    let read = 0;
    const row = { get k() { read++; return 'a\ud83d'; } };
    expect(compileSpanNode(plan.root, spans)(line, row)).toBe(true);
    expect(read).toBe(1);
  });
});
